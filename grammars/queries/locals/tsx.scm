; inherits: typescript
; TSX: TypeScript's scopes and definitions (JSX adds no bindings).
