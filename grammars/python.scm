; Python. Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @reference an identifier used,
;   @import a module specifier. A function inside a class becomes a method in code.

(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function

; Module-level UPPER_CASE assignments are constants by convention.
(module
  (expression_statement
    (assignment left: (identifier) @name)) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement module_name: (dotted_name) @import)
(import_from_statement module_name: (relative_import) @import)

(identifier) @reference
