; Go scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (@vscode/tree-sitter-wasm 0.3.1) from
; tree-sitter-go's queries (MIT) and nvim-treesitter's queries/go/locals.scm (Apache-2.0):
; functions, methods, function literals, blocks and the statements that open a block with their
; own bindings (`for`, `if`, `switch`, `select` cases) are scopes. Package-level declarations are
; the package's (the root scope): other files of the package see them too.

; ---- scopes
[
  (source_file)
  (function_declaration)
  (method_declaration)
  (func_literal)
  (block)
  (for_statement)
  (if_statement)
  (expression_switch_statement)
  (type_switch_statement)
  (communication_case)
  (expression_case)
  (type_case)
] @local.scope

; ---- definitions
(function_declaration name: (identifier) @local.definition.function)
(parameter_declaration name: (identifier) @local.definition.parameter)
(variadic_parameter_declaration name: (identifier) @local.definition.parameter)
(short_var_declaration left: (expression_list (identifier) @local.definition.var))
(var_spec name: (identifier) @local.definition.var)
(const_spec name: (identifier) @local.definition.var)
(range_clause left: (expression_list (identifier) @local.definition.var))
(type_switch_statement alias: (expression_list (identifier) @local.definition.var))
(receive_statement left: (expression_list (identifier) @local.definition.var))
(type_spec name: (type_identifier) @local.definition.type)
(type_parameter_declaration name: (identifier) @local.definition.type)
(import_spec name: (package_identifier) @local.definition.import)
