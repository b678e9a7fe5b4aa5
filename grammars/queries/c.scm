; C definitions, calls and includes. `#include "x.h"` is an import of the file (no names bound by it).
; Capture conventions: see grammars/README.md.

; ---- definitions (the name sits inside nested declarators: pointers, parentheses)
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.type
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.type
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.type
(type_definition declarator: (type_identifier) @name) @definition.type

; ---- calls
(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))

; ---- includes: `#include "a/b.h"` -> a module import of `a/b.h` (system `<...>` headers are not the repository's)
(preproc_include path: (string_literal) @import.module)
