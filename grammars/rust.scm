; Rust. Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the item, @name its name, @scope/@scope.name an impl block whose type
;   contains the functions inside, @reference an identifier used, @import a use path, and
;   @import.module a `mod name;` declaration (a file of its own).

(struct_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(macro_definition name: (identifier) @name) @definition.function
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module

(impl_item type: [(type_identifier) @scope.name (generic_type type: (type_identifier) @scope.name)]) @scope

(use_declaration argument: (_) @import)
(mod_item name: (identifier) @import.module !body)

(identifier) @reference
(type_identifier) @reference
(field_identifier) @reference
