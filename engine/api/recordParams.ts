import { invalidInput } from '../errors';
import type { Params } from './params';
import { describe } from '../memory/validate';

/**
 * Checks for the list-of-records params of the knowledge-graph methods. They arrive as JSON from other
 * processes, so each method checks its own, with messages that name the field as `list[i].field`.
 */
export function recordList(params: Params, field: string): Params[] {
  const value = params[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidInput(`${field} must be a list; got ${describe(value)}`);
  return value.map((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw invalidInput(`${field}[${index}] must be an object; got ${describe(item)}`);
    return item as Params;
  });
}

/** Any text, empty included: the official memory server's names, types and observations may be empty. */
export function text(record: Params, field: string, where: string): string {
  const value = record[field];
  if (typeof value !== 'string')
    throw invalidInput(`${where}.${field} is required (text); got ${describe(value)}`);
  return value;
}

export function textList(record: Params, field: string, where: string): string[] {
  const value = record[field];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw invalidInput(`${where}.${field} must be a list of text; got ${describe(value)}`);
  return value as string[];
}
