; Python scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (@vscode/tree-sitter-wasm 0.3.1) from
; tree-sitter-python's queries/locals.scm (MIT) and nvim-treesitter's queries/python/locals.scm
; (Apache-2.0). Differences: comprehensions and class bodies are scopes (engine/src/resolve/scopes.ts
; skips a class scope from inside its methods, as Python does); a `@local.definition.pattern`
; capture is a binding target whose identifiers scopes.ts collects (`a, (b, *c) = ...`).
; References are not captured: the resolver starts from the name at the cursor.

; ---- scopes
[
  (module)
  (class_definition)
  (function_definition)
  (lambda)
  (list_comprehension)
  (set_comprehension)
  (dictionary_comprehension)
  (generator_expression)
] @local.scope

; ---- definitions
(function_definition name: (identifier) @local.definition.function)
(class_definition name: (identifier) @local.definition.class)

(parameters (identifier) @local.definition.parameter)
(default_parameter name: (identifier) @local.definition.parameter)
(typed_parameter (identifier) @local.definition.parameter)
(typed_default_parameter name: (identifier) @local.definition.parameter)
(list_splat_pattern (identifier) @local.definition.parameter)
(dictionary_splat_pattern (identifier) @local.definition.parameter)
(lambda_parameters (identifier) @local.definition.parameter)

(assignment left: (_) @local.definition.pattern)
(augmented_assignment left: (identifier) @local.definition.var)
(named_expression name: (identifier) @local.definition.var)
(for_statement left: (_) @local.definition.pattern)
(for_in_clause left: (_) @local.definition.pattern)
(as_pattern alias: (as_pattern_target) @local.definition.pattern)

(import_statement name: (dotted_name . (identifier) @local.definition.import))
(import_from_statement name: (dotted_name (identifier) @local.definition.import))
(aliased_import alias: (identifier) @local.definition.import)
