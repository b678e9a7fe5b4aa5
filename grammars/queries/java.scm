; Java definitions, calls and imports.
; Capture conventions: see grammars/README.md. Annotations live inside `modifiers`, so they are
; part of the definition node already.

; ---- definitions
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.type
(annotation_type_declaration name: (identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method

; ---- calls
(method_invocation name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
(object_creation_expression type: (generic_type (type_identifier) @call))
(object_creation_expression type: (scoped_type_identifier (type_identifier) @call .))

; ---- imports: `import a.b.C;` binds C (wildcard imports bind nothing by name)
(import_declaration (scoped_identifier) @import.path .)
