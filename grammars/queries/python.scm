; Python definitions, calls and imports.
; Capture conventions: see grammars/README.md. Decorators are included through the
; `decorated_definition` wrapper (see the language table in engine/src/chunk/languages.ts).

; ---- definitions (functions inside a class become methods)
(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

; ---- calls
(call function: (identifier) @call)
(call function: (attribute attribute: (identifier) @call))

; ---- imports
; import a.b  /  import numpy as np
(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias))
; from x import y  /  from ..x import y as z
(import_from_statement
  module_name: (_) @import.source
  name: (dotted_name) @import.name)
(import_from_statement
  module_name: (_) @import.source
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
