; PHP. Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @reference a name used, @import a
;   used namespace name or an included file expression.

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.interface
(enum_declaration name: (name) @name) @definition.enum
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(const_declaration (const_element (name) @name)) @definition.constant

(namespace_use_clause) @import
(require_expression (_) @import)
(require_once_expression (_) @import)
(include_expression (_) @import)
(include_once_expression (_) @import)

(name) @reference
