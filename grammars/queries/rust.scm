; Rust definitions, calls and imports.
; Capture conventions: see grammars/README.md. `impl` blocks are containers (their functions
; become methods named `Type.method`) but not definitions themselves.

; ---- definitions
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.type
(enum_item name: (type_identifier) @name) @definition.type
(union_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.type
(type_item name: (type_identifier) @name) @definition.type
(impl_item type: [(type_identifier) @name
                  (generic_type type: (type_identifier) @name)
                  (scoped_type_identifier name: (type_identifier) @name)]) @definition.impl
(macro_definition name: (identifier) @name) @definition.function

; ---- calls
(call_expression function: (identifier) @call)
(call_expression function: (scoped_identifier name: (identifier) @call))
(call_expression function: (field_expression field: (field_identifier) @call))
(call_expression function: (generic_function function: (identifier) @call))
(call_expression function: (generic_function function: (scoped_identifier name: (identifier) @call)))
(call_expression function: (generic_function function: (field_expression field: (field_identifier) @call)))
(struct_expression name: (type_identifier) @call)

; ---- imports
; use a::b::C;  /  use a::b::C as D;
(use_declaration argument: (scoped_identifier) @import.path)
(use_declaration argument: (use_as_clause path: (scoped_identifier) @import.path alias: (identifier) @import.alias))
; use a::b::{C, D as E};
(scoped_use_list path: (_) @import.source list: (use_list (identifier) @import.name))
(scoped_use_list path: (_) @import.source list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))
