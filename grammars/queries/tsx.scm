; TSX: the TypeScript patterns plus JSX component references as calls.
; Capture conventions: see grammars/README.md.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [(arrow_function) (function_expression)])) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method
(abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method
(interface_declaration name: (type_identifier) @name) @definition.type
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type

; ---- calls
(call_expression function: (identifier) @call)
(call_expression function: (member_expression property: [(property_identifier) (private_property_identifier)] @call))
(new_expression constructor: (identifier) @call)
(new_expression constructor: (member_expression property: (property_identifier) @call))

; ---- imports
(import_statement
  (import_clause (identifier) @import.default)
  source: (string (string_fragment) @import.source))
(import_statement
  (import_clause (namespace_import (identifier) @import.namespace))
  source: (string (string_fragment) @import.source))
(import_statement
  (import_clause
    (named_imports
      (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string (string_fragment) @import.source))
; CommonJS: const x = require('y')
(variable_declarator
  name: (identifier) @import.default
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.source) .))
  (#eq? @_require "require"))

; ---- JSX: rendering a component counts as calling it (lower-case tags are HTML elements)
(jsx_opening_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @call))
(jsx_self_closing_element name: (member_expression property: (property_identifier) @call))
