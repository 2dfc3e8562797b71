; JavaScript (.js, .jsx, .mjs, .cjs). Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @reference an identifier used,
;   @import a module specifier, @export.name a local name an export list makes public.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(method_definition name: (_) @name) @definition.method

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
; CommonJS: module.exports = { a, b } and exports.a = ...
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (object (shorthand_property_identifier) @export.name)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
(assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @export.name)
  (#eq? @_exports "exports"))

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
(property_identifier) @reference
