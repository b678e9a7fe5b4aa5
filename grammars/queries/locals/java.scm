; Java scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (@vscode/tree-sitter-wasm 0.3.1) from
; nvim-treesitter's queries/java/locals.scm (Apache-2.0): methods, constructors, lambdas, blocks,
; loops, `try` with resources, `catch` and switch rules are scopes. Class bodies are not: fields and
; methods stay names for the name lookup (a field is the class's, not a local).

; ---- scopes
[
  (program)
  (method_declaration)
  (constructor_declaration)
  (lambda_expression)
  (block)
  (for_statement)
  (enhanced_for_statement)
  (try_with_resources_statement)
  (catch_clause)
  (switch_rule)
  (switch_block_statement_group)
] @local.scope

; ---- definitions
(formal_parameter name: (identifier) @local.definition.parameter)
(spread_parameter (variable_declarator name: (identifier) @local.definition.parameter))
(catch_formal_parameter name: (identifier) @local.definition.parameter)
(lambda_expression parameters: (identifier) @local.definition.parameter)
(inferred_parameters (identifier) @local.definition.parameter)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.definition.var))
(enhanced_for_statement name: (identifier) @local.definition.var)
(resource name: (identifier) @local.definition.var)
(instanceof_expression name: (identifier) @local.definition.var)
(record_pattern_component (identifier) @local.definition.var)
(method_declaration type_parameters: (type_parameters (type_parameter (type_identifier) @local.definition.type)))
