; C scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (tree-sitter-wasms 0.1.13) from
; nvim-treesitter's queries/c/locals.scm (Apache-2.0): function definitions, blocks and `for`
; are scopes; parameters and declarations inside them bind the identifier their declarator names
; (`*p`, `a[]`, `(*cb)(int)`: engine/src/resolve/scopes.ts walks the declarator). Declarations at
; file level are the translation unit's: other files see them through headers.

; ---- scopes
[
  (translation_unit)
  (function_definition)
  (compound_statement)
  (for_statement)
] @local.scope

; ---- definitions
(parameter_declaration declarator: (_) @local.definition.pattern)
(declaration declarator: (_) @local.definition.pattern)
