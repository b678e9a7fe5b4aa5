; Go definitions, calls and imports.
; Capture conventions: see grammars/README.md.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @container
             (pointer_type (type_identifier) @container)
             (generic_type type: (type_identifier) @container)
             (pointer_type (generic_type type: (type_identifier) @container))]))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

; ---- calls
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression field: (field_identifier) @call))
(composite_literal type: (type_identifier) @call)

; ---- imports (the package is bound under its alias or the last path segment)
(import_spec
  name: (package_identifier)? @import.alias
  path: (interpreted_string_literal) @import.module)
