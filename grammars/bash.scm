; Bash. Captures read by engine/code/queryCaptures.ts:
;   @definition.<kind> the declaration, @name its name, @reference a command or variable used,
;   @import a sourced file.

(function_definition name: (word) @name) @definition.function
; Top-level UPPER_CASE assignments are the script's settings.
(program
  (variable_assignment name: (variable_name) @name) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(command
  name: (command_name) @_source
  .
  argument: (_) @import
  (#any-of? @_source "source" "."))

(command_name (word) @reference)
(variable_name) @reference
