; C++ definitions, calls and includes. `#include "x.h"` is an import of the file (no names bound by it).
; Capture conventions: see grammars/README.md. Out-of-class definitions (`void A::m() {}`)
; are methods of `A` through the @container capture.

; ---- definitions
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name) (destructor_name)] @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: [(namespace_identifier) (template_type name: (type_identifier))] @container
      name: [(identifier) (destructor_name) (operator_name)] @name))) @definition.method
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator
    declarator: (qualified_identifier
      scope: [(namespace_identifier) (template_type name: (type_identifier))] @container
      name: (identifier) @name)))) @definition.method
(function_definition
  declarator: (reference_declarator (function_declarator
    declarator: (qualified_identifier
      scope: [(namespace_identifier) (template_type name: (type_identifier))] @container
      name: (identifier) @name)))) @definition.method
(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.type
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(type_definition declarator: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type

; ---- calls
(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))
(call_expression function: (qualified_identifier name: (identifier) @call))
(call_expression function: (template_function name: (identifier) @call))
(call_expression function: (qualified_identifier name: (template_function name: (identifier) @call)))
(call_expression function: (field_expression field: (template_method name: (field_identifier) @call)))
(new_expression type: (type_identifier) @call)
(new_expression type: (qualified_identifier name: (type_identifier) @call))

; ---- includes: `#include "a/b.h"` -> a module import of `a/b.h` (system `<...>` headers are not the repository's)
(preproc_include path: (string_literal) @import.module)
