; Java. Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @reference an identifier used,
;   @import an imported type or package.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
; static final fields are the constants of Java.
(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

(import_declaration [(scoped_identifier) (identifier)] @import)

(identifier) @reference
(type_identifier) @reference
