; Go. Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @container the receiver type of a
;   method, @reference an identifier used, @import a package path (quoted).

(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @container (pointer_type (type_identifier) @container)]))
  name: (field_identifier) @name) @definition.method
(type_declaration (type_spec name: (type_identifier) @name type: (struct_type))) @definition.class
(type_declaration (type_spec name: (type_identifier) @name type: (interface_type))) @definition.interface
(type_declaration (type_spec name: (type_identifier) @name)) @definition.type
(type_declaration (type_alias name: (type_identifier) @name)) @definition.type
(source_file (const_declaration (const_spec name: (identifier) @name)) @definition.constant)
(source_file (var_declaration (var_spec name: (identifier) @name)) @definition.constant)

(import_spec path: (_) @import)

(identifier) @reference
(type_identifier) @reference
(field_identifier) @reference
