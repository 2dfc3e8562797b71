import { invalidInput } from '../errors';
import { KINDS } from '../memory/types';
import type { Kind, Layer } from '../memory/types';

/**
 * One team memory as its file under `.engram/team/<id>.md` holds it: a small front matter and the
 * memory's text as the body. The file is what the team reviews and merges, so it is plain Markdown
 * whose every field is one line: two branches that change different fields of one memory merge
 * line by line, and two that change the same field conflict in that line only.
 */
export interface TeamEntry {
  /** The memory's id where it was first shared; also the file's name. */
  id: string;
  /** The file's own version: each rewrite (edit, invalidation, supersession) adds one. */
  version: number;
  kind: Kind;
  layer: (typeof TEAM_LAYERS)[number];
  tags: string[];
  /** When the memory became true (ms since epoch). */
  validFrom: number;
  /** When it stopped being true: set by an invalidation or supersession. */
  validTo: number | null;
  /** Who shared it first (the agent or user name of that write). */
  author: string | null;
  /** Team ids of the memories this one replaces. */
  supersedes: string[];
  /** The team id of the memory that replaced this one. */
  supersededBy: string | null;
  /** Why it is no longer true (an invalidation's reason). */
  reason: string | null;
  /** What drift checks in the text (`kind subject`), for the reviewer; drift extracts them again. */
  claims: string[];
  content: string;
}

export const TEAM_TAG = 'team';

/** Layers a team shares: working notes are a session's, codebase memories derived from the code. */
export const TEAM_LAYERS = ['episodic', 'semantic', 'procedural'] as const satisfies readonly Layer[];

/** Team ids are memory ids: safe as file names on every platform. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isTeamId(id: string): boolean {
  return ID_PATTERN.test(id);
}

const iso = (time: number) => new Date(time).toISOString();
const list = (values: readonly string[]) => JSON.stringify(values);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The file's text. Deterministic: the same entry always gives the same bytes (no write time). */
export function renderTeamFile(entry: TeamEntry): string {
  const lines = [
    `id: ${entry.id}`,
    `version: ${entry.version}`,
    `kind: ${entry.kind}`,
    `layer: ${entry.layer}`,
    `tags: ${list(entry.tags.filter((t) => t !== TEAM_TAG))}`,
    `valid_from: ${iso(entry.validFrom)}`,
    `valid_to: ${entry.validTo === null ? '' : iso(entry.validTo)}`,
    `author: ${entry.author === null ? '' : oneLine(entry.author)}`,
    `supersedes: ${list(entry.supersedes)}`,
  ];
  if (entry.supersededBy !== null) lines.push(`superseded_by: ${entry.supersededBy}`);
  if (entry.reason !== null) lines.push(`reason: ${oneLine(entry.reason)}`);
  lines.push(`claims: ${list(entry.claims)}`);
  // An empty field is `key:` with no trailing space, which editors would strip.
  return ['---', ...lines.map((l) => l.trimEnd()), '---', '', entry.content.trim(), ''].join('\n');
}

/**
 * Reads a file's text. `file` names it in errors. Throws a one-line INVALID_INPUT that says which
 * field was wrong and what it held.
 */
export function parseTeamFile(text: string, file: string): TeamEntry {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[0] !== '---') throw invalidInput(`${file}: expected front matter starting with "---"`);
  const end = lines.indexOf('---', 1);
  if (end < 0) throw invalidInput(`${file}: the front matter has no closing "---"`);
  const fields = new Map<string, string>();
  for (const line of lines.slice(1, end)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon < 1) throw invalidInput(`${file}: expected "key: value" in the front matter, got "${line}"`);
    fields.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const field = (key: string) => fields.get(key) ?? '';
  const content = lines
    .slice(end + 1)
    .join('\n')
    .trim();
  if (content === '') throw invalidInput(`${file}: the memory's text (after the front matter) is empty`);
  const id = field('id');
  if (!isTeamId(id)) throw invalidInput(`${file}: id must be letters, digits, _ or -, got "${id}"`);
  return {
    id,
    version: wholeNumber(file, 'version', field('version')),
    kind: oneOf(file, 'kind', field('kind'), KINDS),
    layer: oneOf(file, 'layer', field('layer'), TEAM_LAYERS),
    tags: stringList(file, 'tags', field('tags')),
    validFrom: time(file, 'valid_from', field('valid_from')),
    validTo: field('valid_to') === '' ? null : time(file, 'valid_to', field('valid_to')),
    author: field('author') || null,
    supersedes: stringList(file, 'supersedes', field('supersedes')),
    supersededBy: field('superseded_by') || null,
    reason: field('reason') || null,
    claims: stringList(file, 'claims', field('claims')),
    content,
  };
}

function wholeNumber(file: string, key: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw invalidInput(`${file}: ${key} must be a whole number >= 1, got "${value}"`);
  return n;
}

function oneOf<T extends string>(file: string, key: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalidInput(`${file}: ${key} must be one of ${allowed.join(', ')}, got "${value}"`);
}

function time(file: string, key: string, value: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw invalidInput(`${file}: ${key} must be an ISO time, got "${value}"`);
  return t;
}

function stringList(file: string, key: string, value: string): string[] {
  if (value === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === 'string'))
    throw invalidInput(`${file}: ${key} must be a list like ["a", "b"], got "${value}"`);
  return parsed;
}
