; C++, also used for C sources and headers (.c, .h). Captures read by
; engine/code/queryCaptures.ts: @definition.<kind> the declaration, @name its name, @reference an
; identifier used, @import an #include path (quoted or <system>).

(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(namespace_definition name: (_) @name) @definition.module
(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name) (destructor_name)] @name)) @definition.function
(function_definition
  declarator: (_ (function_declarator
    declarator: [(identifier) (field_identifier) (qualified_identifier)] @name))) @definition.function
; Prototypes in headers are the interface of a C/C++ module.
(translation_unit
  (declaration
    declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(field_declaration
  declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method
(preproc_def name: (identifier) @name) @definition.constant

(preproc_include path: (_) @import)

(identifier) @reference
(type_identifier) @reference
(field_identifier) @reference
