; TypeScript scopes and local definitions, in tree-sitter's `locals` convention (@local.scope,
; @local.definition.KIND). Adapted to the grammar we ship (@vscode/tree-sitter-wasm 0.3.1) from
; tree-sitter-javascript's queries/locals.scm (MIT) and nvim-treesitter's queries/ecma/locals.scm
; and queries/typescript/locals.scm (Apache-2.0). Differences as in javascript.scm, plus type
; parameters, interfaces, type aliases, enums and namespaces. A `@local.definition.pattern` capture
; is a binding target whose identifiers engine/src/resolve/scopes.ts collects.

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
  (abstract_class_declaration)
  (class)
  (interface_declaration)
  (type_alias_declaration)
  (function_signature)
  (method_signature)
] @local.scope

; ---- definitions
(function_declaration name: (identifier) @local.definition.function)
(generator_function_declaration name: (identifier) @local.definition.function)
(function_signature name: (identifier) @local.definition.function)
(class_declaration name: (type_identifier) @local.definition.class)
(abstract_class_declaration name: (type_identifier) @local.definition.class)
(interface_declaration name: (type_identifier) @local.definition.type)
(type_alias_declaration name: (type_identifier) @local.definition.type)
(enum_declaration name: (identifier) @local.definition.type)
(internal_module name: (identifier) @local.definition.namespace)
(type_parameter name: (type_identifier) @local.definition.type)

(variable_declarator name: (_) @local.definition.pattern)
(required_parameter pattern: (_) @local.definition.pattern)
(optional_parameter pattern: (_) @local.definition.pattern)
(arrow_function parameter: (identifier) @local.definition.parameter)
(catch_clause parameter: (_) @local.definition.pattern)
(for_in_statement left: (_) @local.definition.pattern)

(import_clause (identifier) @local.definition.import)
(namespace_import (identifier) @local.definition.import)
(import_specifier alias: (identifier) @local.definition.import)
(import_specifier !alias name: (identifier) @local.definition.import)
