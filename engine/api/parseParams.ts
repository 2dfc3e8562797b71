import type { z } from 'zod';
import { invalidInput } from '../errors';
import { describe } from '../memory/validate';
import type { MethodSpec } from './defineMethod';
import { asParams } from './params';
import type { Params } from './params';

const NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** `entities[0].name`: the field as a caller wrote it. */
function fieldOf(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function valueAt(params: unknown, path: readonly PropertyKey[]): unknown {
  let value = params;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * What was expected, in the engine's words. A schema's own message (given where a limit has a
 * reason, e.g. `must be 1 to 1000`) is kept; zod's defaults ("Invalid input: ...") are rewritten.
 */
function expectation(issue: z.core.$ZodIssue, value: unknown): string {
  if (!/^(Invalid|Too (big|small))\b/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      const noun = NOUNS[issue.expected] ?? issue.expected;
      return value === undefined ? `is required (${noun})` : `must be ${noun}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must hold at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must hold at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be at most ${String(issue.maximum)}`;
    default:
      return issue.message.replace(/\s+/g, ' ');
  }
}

/**
 * A top-level null is an absent field: hosts that speak JSON write "not given" as null, and the
 * engine's field checks always read it so. Nested nulls stay (an edit's `context: null` clears it).
 */
function withoutNulls(params: Params): Params {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== null));
}

/**
 * A method's parameters, parsed once by its schema before it runs. Bad input is one INVALID_INPUT
 * line naming the first bad field, what was expected and what came (`k must be 1 to 1000; got
 * 5000`); nothing has run, so nothing changed.
 */
export function parseParams<P extends z.ZodType>(
  spec: MethodSpec<P>,
  raw: unknown,
  method: string,
): z.output<P> {
  const params = asParams(raw, method);
  const parsed = spec.params.safeParse(withoutNulls(params));
  if (parsed.success) return parsed.data;
  throw invalidInput(issueLine(parsed.error, params) ?? `${method}: invalid parameters`);
}

/**
 * The first issue of `error` as one line: the field of `input` it is about, what was expected and
 * what came. `whole` names `input` itself when the issue is about it rather than a field of it.
 */
export function issueLine(error: z.ZodError, input: unknown, whole = 'params'): string | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  const value = valueAt(input, issue.path);
  // An item of a list of plain values is named by its list (`channels must be one of ...; got
  // "x"`), as the engine's field checks always did; records keep their index (`seeds[0]`).
  const plainItem = typeof issue.path.at(-1) === 'number' && (typeof value !== 'object' || value === null);
  const path = plainItem ? issue.path.slice(0, -1) : issue.path;
  const field = path.length > 0 ? fieldOf(path) : whole;
  return `${field} ${expectation(issue, value)}; got ${describe(value)}`;
}
