; TSX: the TypeScript queries (JSX needs none of its own). Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @reference an identifier used,
;   @import a module specifier, @export.name a local name an export list makes public.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (_) @name) @definition.module
(method_definition name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(method_signature name: (_) @name) @definition.method

; Top-level const/let bindings: functions when they hold one, constants otherwise.
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression)])) @definition.function)
(export_statement
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression)])) @definition.function)
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.constant)
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.constant)

(export_statement (export_clause (export_specifier name: (identifier) @export.name)))

(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @import))
  (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import)))

(identifier) @reference
(type_identifier) @reference
(property_identifier) @reference
