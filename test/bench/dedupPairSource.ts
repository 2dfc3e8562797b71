/**
 * Reads the texts of test/bench/dedupPairs.json out of the benchmark files at run time. The JSON
 * holds only locators and hashes: the sentences are other people's text (LoCoMo is CC BY-NC) and
 * are not committed here.
 *
 * A locator: `file` relative to the repository root, `path` into the parsed JSON (a string is an
 * object key, a number an array index, `{ key: value }` the array element whose `key` has that
 * value), `chars` [start, end) when the side is one sentence of a longer string, and the sha1
 * (hex, of the UTF-8 text) that the located text must have.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export type PathStep = string | number | Record<string, string>;

export interface TextLocator {
  file: string;
  path: PathStep[];
  chars?: [number, number];
  sha1: string;
}

export interface StoredPair {
  id: number;
  a: TextLocator;
  b: TextLocator;
  label: 'merge' | 'keep';
  reason: string;
}

export interface LabelledPair extends Omit<StoredPair, 'a' | 'b'> {
  a: { text: string };
  b: { text: string };
}

/** The prefix of every locator's file: the shared benchmark folder beside the repository. */
export const SHARED_BENCH_PREFIX = '../shared/bench/';

/**
 * Pairs with their texts. `dataDir` stands for `../shared/bench` (a git worktree has no such
 * sibling). Throws a one-line error naming the pair and side on the first locator that does not
 * resolve or whose text has another hash.
 */
export function resolvePairs(pairs: StoredPair[], repoRoot: string, dataDir?: string): LabelledPair[] {
  const files = new Map<string, unknown>();
  const load = (file: string): unknown => {
    const local =
      dataDir && file.startsWith(SHARED_BENCH_PREFIX)
        ? path.join(dataDir, file.slice(SHARED_BENCH_PREFIX.length))
        : path.resolve(repoRoot, file);
    let parsed = files.get(local);
    if (parsed === undefined) {
      let raw: Buffer;
      try {
        raw = readFileSync(local);
      } catch {
        throw new Error(
          `${file} not found at ${local} (give --data DIR, the folder holding locomo/ and longmemeval/)`,
        );
      }
      parsed = JSON.parse((local.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as unknown;
      files.set(local, parsed);
    }
    return parsed;
  };
  const text = (pair: StoredPair, side: 'a' | 'b'): string => {
    const locator = pair[side];
    try {
      return locate(load(locator.file), locator);
    } catch (error) {
      throw new Error(
        `dedupPairs.json pair #${pair.id} side ${side}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return pairs.map((pair) => ({ ...pair, a: { text: text(pair, 'a') }, b: { text: text(pair, 'b') } }));
}

function locate(data: unknown, locator: TextLocator): string {
  let node = data;
  for (const step of locator.path) node = walk(node, step);
  if (typeof node !== 'string')
    throw new Error(`path ${JSON.stringify(locator.path)} ends at a ${typeof node}, not a string`);
  const [start, end] = locator.chars ?? [0, node.length];
  if (!(start >= 0 && start < end && end <= node.length)) {
    throw new Error(`chars [${start}, ${end}] outside the located string of ${node.length} characters`);
  }
  const found = node.slice(start, end);
  const sha1 = createHash('sha1').update(found, 'utf8').digest('hex');
  if (sha1 !== locator.sha1)
    throw new Error(`the located text has sha1 ${sha1}, expected ${locator.sha1} (the data changed?)`);
  return found;
}

function walk(node: unknown, step: PathStep): unknown {
  const name = JSON.stringify(step);
  if (typeof step === 'number') {
    if (!Array.isArray(node) || step < 0 || step >= node.length) throw new Error(`no element ${name}`);
    return node[step] as unknown;
  }
  if (typeof step === 'string') {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !(step in node)) {
      throw new Error(`no key ${name}`);
    }
    return (node as Record<string, unknown>)[step];
  }
  const [key, value] = Object.entries(step)[0] ?? [];
  const matches = Array.isArray(node)
    ? node.filter(
        (item) =>
          item !== null && typeof item === 'object' && (item as Record<string, unknown>)[key!] === value,
      )
    : [];
  if (key === undefined || matches.length !== 1)
    throw new Error(`${matches.length} elements match ${name}, not 1`);
  return matches[0] as unknown;
}
