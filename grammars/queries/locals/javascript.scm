; JavaScript scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (@vscode/tree-sitter-wasm 0.3.1) from
; tree-sitter-javascript's queries/locals.scm (MIT) and nvim-treesitter's queries/ecma/locals.scm
; (Apache-2.0). Differences: loops, catch clauses and classes are scopes; a
; `@local.definition.pattern` capture is a binding target (identifier, object or array pattern,
; default or rest) whose bound identifiers engine/src/resolve/scopes.ts collects. A function's or
; class's own name is bound in the scope around it (scopes.ts). References are not captured: the
; resolver starts from the name at the cursor.

; ---- scopes
[
  (program)
  (statement_block)
  (function_declaration)
  (generator_function_declaration)
  (function_expression)
  (generator_function)
  (arrow_function)
  (method_definition)
  (for_statement)
  (for_in_statement)
  (catch_clause)
  (class_declaration)
  (class)
] @local.scope

; ---- definitions
(function_declaration name: (identifier) @local.definition.function)
(generator_function_declaration name: (identifier) @local.definition.function)
(class_declaration name: (identifier) @local.definition.class)

(variable_declarator name: (_) @local.definition.pattern)
(formal_parameters (_) @local.definition.pattern)
(arrow_function parameter: (identifier) @local.definition.parameter)
(catch_clause parameter: (_) @local.definition.pattern)
(for_in_statement left: (_) @local.definition.pattern)

(import_clause (identifier) @local.definition.import)
(namespace_import (identifier) @local.definition.import)
(import_specifier alias: (identifier) @local.definition.import)
(import_specifier !alias name: (identifier) @local.definition.import)
