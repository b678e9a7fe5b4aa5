; Rust scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (@vscode/tree-sitter-wasm 0.3.1) from
; nvim-treesitter's queries/rust/locals.scm (Apache-2.0): function bodies, closures, blocks, loops
; and match arms are scopes; `let`, `if let`/`while let`, `for`, match arms, parameters and closure
; parameters bind patterns, whose identifiers engine/src/resolve/scopes.ts collects (a
; `tuple_struct_pattern`'s or `struct_pattern`'s type is not bound). Items at file level are the
; module's; `impl`, `trait` and `mod` bodies are not scopes here, so their items stay the module's
; names for the name lookup.

; ---- scopes
[
  (source_file)
  (function_item)
  (closure_expression)
  (block)
  (if_expression)
  (while_expression)
  (for_expression)
  (match_arm)
] @local.scope

; ---- definitions
(function_item name: (identifier) @local.definition.function)
(parameter pattern: (_) @local.definition.pattern)
(self_parameter) @local.definition.parameter
(closure_parameters (identifier) @local.definition.parameter)
(closure_parameters (_) @local.definition.pattern)
(let_declaration pattern: (_) @local.definition.pattern)
(let_condition pattern: (_) @local.definition.pattern)
(for_expression pattern: (_) @local.definition.pattern)
(match_arm pattern: (_) @local.definition.pattern)
(type_parameter name: (type_identifier) @local.definition.type)
