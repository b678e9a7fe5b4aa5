; inherits: typescript
; TSX: the TypeScript patterns (above, from typescript.scm) plus JSX component references as calls.

; ---- JSX: rendering a component counts as calling it (lower-case tags are HTML elements)
(jsx_opening_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @call))
(jsx_self_closing_element name: (member_expression property: (property_identifier) @call))
