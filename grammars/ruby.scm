; Ruby. Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @reference an identifier used,
;   @import a required feature, @import.relative a require_relative path.

(class name: (_) @name) @definition.class
(module name: (_) @name) @definition.module
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
(assignment left: (constant) @name) @definition.constant

(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @import))
  (#any-of? @_require "require" "load"))
(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @import.relative))
  (#eq? @_require "require_relative"))

(identifier) @reference
(constant) @reference
