import { optionalText } from '../memory/validate';

/**
 * The longest query any surface accepts, in characters: MCP tools and prompts, the CLI, VS Code
 * and the engine's own methods. A question is a few sentences; what is longer is pasted text, and
 * analysing it costs the shared host time every other client waits for.
 */
export const MAX_QUERY_CHARS = 4000;

/** `value` when it is no longer than MAX_QUERY_CHARS; TOO_LARGE naming `field` otherwise. */
export function boundedQuery(field: string, value: string): string {
  return optionalText(field, value, MAX_QUERY_CHARS) ?? value;
}

/**
 * The longest text `locate` ranks files for: an issue report, pasted whole, with its traceback
 * (SWE-bench Verified issues run to 25,000 characters). Its recall channel reads the first
 * MAX_QUERY_CHARS, as recall would.
 */
export const MAX_ISSUE_CHARS = 32_000;

/** `value` when it is no longer than MAX_ISSUE_CHARS; TOO_LARGE naming `field` otherwise. */
export function boundedIssue(field: string, value: string): string {
  return optionalText(field, value, MAX_ISSUE_CHARS) ?? value;
}
