; C++ scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (@vscode/tree-sitter-wasm 0.3.1) from
; nvim-treesitter's queries/c/locals.scm and queries/cpp/locals.scm (Apache-2.0), as c.scm plus
; lambdas, range `for`, `catch`, `if`/`switch` with an initializer, template parameters and packs (`T&&... args`).
; Namespaces and class bodies are not scopes: their members stay names for the name lookup.

; ---- scopes
[
  (translation_unit)
  (function_definition)
  (lambda_expression)
  (compound_statement)
  (for_statement)
  (for_range_loop)
  (catch_clause)
  (if_statement)
  (switch_statement)
  (template_declaration)
] @local.scope

; ---- definitions
(parameter_declaration declarator: (_) @local.definition.pattern)
(optional_parameter_declaration declarator: (_) @local.definition.pattern)
(variadic_parameter_declaration declarator: (_) @local.definition.pattern)
(declaration declarator: (_) @local.definition.pattern)
(for_range_loop declarator: (_) @local.definition.pattern)
(type_parameter_declaration (type_identifier) @local.definition.type)
(variadic_type_parameter_declaration (type_identifier) @local.definition.type)
(optional_type_parameter_declaration name: (type_identifier) @local.definition.type)
