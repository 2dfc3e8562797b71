import { EngramError, invalidInput } from '../errors';
import { withoutSecrets } from '../extract/secrets';
import type { MemoryLimits } from './limits';
import { KINDS, LAYERS, SCOPES, TRUST_LEVELS } from './types';
import type { Kind, Layer, RememberInput, Scope, SourceRef, Trust } from './types';

/** A RememberInput with every field checked and defaulted. */
export interface ValidRemember {
  content: string;
  context: string | null;
  layer: Layer;
  kind: Kind;
  tags: string[];
  importance: number;
  critical: boolean;
  pinned: boolean;
  scope: Scope;
  conflictKey: string | null;
  source: SourceRef | null;
  validFrom: number | null;
  agent: string | null;
  session: string | null;
  trust: Trust | null;
  dedupe: boolean;
  /** Whether the caller chose the importance (surprise adjusts only a defaulted one). */
  importanceGiven: boolean;
}

export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidInput(`${field} must be one of ${allowed.join(', ')}; got ${describe(value)}`);
  }
  return value as T;
}

export function optionalText(field: string, value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidInput(`${field} must be text; got ${describe(value)}`);
  if (value.length > max) {
    throw new EngramError('TOO_LARGE', `${field} is ${value.length} characters; the limit is ${max}`);
  }
  return value;
}

export function requiredText(field: string, value: unknown, max: number): string {
  const text = optionalText(field, value, max);
  if (text === null || text.trim() === '') throw invalidInput(`${field} must not be empty`);
  return text;
}

export function validateTags(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidInput(`tags must be a list of text; got ${describe(value)}`);
  if (value.length > 32) throw invalidInput(`at most 32 tags are allowed; got ${value.length}`);
  const tags = new Set<string>();
  for (const tag of value) {
    if (typeof tag !== 'string') throw invalidInput(`each tag must be text; got ${describe(tag)}`);
    // Redacted before lower-casing: `AKIA...` or `eyJ...` lower-cased is no longer their shape.
    const clean = withoutSecrets(tag.trim()).toLowerCase();
    if (clean === '') continue;
    if (clean.length > 64) throw invalidInput(`tag "${clean.slice(0, 20)}..." is longer than 64 characters`);
    tags.add(clean);
  }
  return [...tags];
}

/** A conflict key (it names what a memory supersedes, and is shown and exported), secrets redacted. */
export function validateConflictKey(value: unknown): string | null {
  const key = optionalText('conflictKey', value, 200)?.trim();
  return key ? withoutSecrets(key) : null;
}

export function validateImportance(value: unknown): number {
  if (value === undefined || value === null) return 0.5;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw invalidInput(`importance must be a number from 0 to 1; got ${describe(value)}`);
  }
  return value;
}

/** The last moment a four-digit ISO 8601 year can name: 9999-12-31T23:59:59.999Z. */
const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** A date, or a date and time with optional seconds, fraction and zone: the forms Date.parse reads reliably. */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/i;

/** What a time field must be, for its error messages. */
export const TIME_EXPECTED = 'must be a time (ISO 8601 like 2026-01-31T12:00:00Z, or ms since 1970)';

/**
 * Accepts ms since the epoch or an ISO 8601 date/time of years 0000-9999. Date.parse alone rolls
 * impossible dates over (2026-02-30 became March 2) and takes six-digit years: both are refused.
 */
export function parseTime(field: string, value: unknown): number {
  const time = timeOf(value);
  if (time === undefined) throw invalidInput(`${field} ${TIME_EXPECTED}; got ${describe(value)}`);
  return time;
}

/** The time `value` names (as parseTime reads it), or undefined when it names none. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= LATEST_TIME) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const trimmed = value.trim();
    const asNumber = Number(trimmed);
    if (/^\d{10,}$/.test(trimmed) && asNumber <= LATEST_TIME) return asNumber;
    const parsed = isCalendarTime(trimmed) ? Date.parse(trimmed) : Number.NaN;
    if (!Number.isNaN(parsed)) return parsed;
  }
  return undefined;
}

function isCalendarTime(text: string): boolean {
  const m = ISO_TIME.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = m
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month! - 1] ?? 0;
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    zoneHour! <= 23 &&
    zoneMinute! <= 59
  );
}

function validateSource(value: unknown): SourceRef | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput(`source must be an object like {"file": "src/a.ts"}; got ${describe(value)}`);
  }
  const allowed = ['file', 'start', 'end', 'quoteHash', 'commit', 'conversation', 'url'];
  const source: SourceRef = {};
  for (const [key, field] of Object.entries(value)) {
    if (!allowed.includes(key))
      throw invalidInput(`source.${key} is not a known field (${allowed.join(', ')})`);
    const numeric = key === 'start' || key === 'end';
    if (numeric ? typeof field !== 'number' : typeof field !== 'string') {
      throw invalidInput(`source.${key} must be ${numeric ? 'a number' : 'text'}; got ${describe(field)}`);
    }
    (source as Record<string, unknown>)[key] = typeof field === 'string' ? withoutSecrets(field) : field;
  }
  return source;
}

export function validateRemember(input: RememberInput, limits: MemoryLimits): ValidRemember {
  if (typeof input !== 'object' || input === null)
    throw invalidInput('remember needs an object with content');
  return {
    content: requiredText('content', input.content, limits.maxContentChars).trim(),
    context: optionalText('context', input.context, limits.maxContextChars),
    layer: input.layer === undefined ? 'semantic' : oneOf('layer', input.layer, LAYERS),
    kind: input.kind === undefined ? 'fact' : oneOf('kind', input.kind, KINDS),
    tags: validateTags(input.tags),
    importance: validateImportance(input.importance),
    critical: input.critical === true,
    pinned: input.pinned === true,
    scope: input.scope === undefined ? 'shared' : oneOf('scope', input.scope, SCOPES),
    conflictKey: validateConflictKey(input.conflictKey),
    source: validateSource(input.source),
    validFrom: input.validFrom === undefined ? null : parseTime('validFrom', input.validFrom),
    agent: optionalText('agent', input.agent, 200),
    session: optionalText('session', input.session, 200),
    trust: input.trust === undefined ? null : oneOf('trust', input.trust, TRUST_LEVELS),
    dedupe: input.dedupe === undefined ? true : booleanField('dedupe', input.dedupe),
    importanceGiven: input.importance !== undefined,
  };
}

function booleanField(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean')
    throw invalidInput(`${field} must be true or false; got ${describe(value)}`);
  return value;
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > 40 ? `"${value.slice(0, 40)}..."` : `"${value}"`;
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
}
