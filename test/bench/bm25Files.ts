import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const K1 = 1.2;
const B = 0.75;
/** Larger files are data, not code, for a baseline as for the scanner. */
const MAX_FILE_BYTES = 1024 * 1024;

export type Tokenizer = (text: string) => string[];

/** The plain baseline's whole tokenizer: lower-case runs of ASCII letters and digits. */
export function plainTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * The code-aware baseline's tokenizer, written apart from the engine's so that a change to the
 * product cannot move the bar: every identifier whole (`get_item`, `getitem`) and its parts split
 * at `_` and camelCase (`get`, `item`), all lower case.
 */
export function codeTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    const whole = match[0];
    const parts = whole
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(/[_\s]+/)
      .filter((p) => p !== '');
    const lower = whole.toLowerCase().replace(/^_+|_+$/g, '');
    if (lower !== '') out.push(lower);
    if (parts.length > 1) for (const part of parts) out.push(part.toLowerCase());
  }
  return out;
}

/**
 * BM25 over whole files (k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5) / (df + 0.5))): the baselines
 * the localisation benchmark compares Engram with. `plain`: runs of letters and digits, nothing
 * else. `code`: identifiers whole and split (codeTokens), and the file's path as words of the file.
 */
export class Bm25Files {
  private readonly postings = new Map<string, Array<{ doc: number; tf: number }>>();
  private readonly lengths: number[] = [];

  private constructor(
    private readonly paths: string[],
    private readonly tokens: Tokenizer,
  ) {}

  /** The given files of the tree (no NUL byte, at most 1 MiB), read from `root`. */
  static fromFiles(root: string, files: readonly string[], kind: 'plain' | 'code'): Bm25Files {
    const docs: Array<{ path: string; text: string }> = [];
    for (const relative of files) {
      const file = path.join(root, relative);
      try {
        if (!statSync(file).isFile() || statSync(file).size > MAX_FILE_BYTES) continue;
        const content = readFileSync(file);
        if (content.includes(0)) continue;
        const text = content.toString('utf8');
        docs.push({
          path: relative,
          text: kind === 'code' ? `${relative.replace(/[/.]/g, ' ')}\n${text}` : text,
        });
      } catch {
        continue;
      }
    }
    const index = new Bm25Files(
      docs.map((d) => d.path),
      kind === 'code' ? codeTokens : plainTokens,
    );
    docs.forEach((d, i) => index.add(i, d.text));
    return index;
  }

  private add(doc: number, text: string): void {
    const counts = new Map<string, number>();
    const all = this.tokens(text);
    for (const term of all) counts.set(term, (counts.get(term) ?? 0) + 1);
    this.lengths[doc] = all.length;
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push({ doc, tf });
    }
  }

  /** The top `k` file paths for a query, best first. */
  search(query: string, k: number): string[] {
    const n = this.paths.length;
    const average = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, n);
    const scores = new Float64Array(n);
    for (const term of new Set(this.tokens(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = K1 * (1 - B + (B * this.lengths[doc]!) / average);
        scores[doc]! += (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    return [...scores.keys()]
      .filter((doc) => scores[doc]! > 0)
      .sort((a, b) => scores[b]! - scores[a]!)
      .slice(0, k)
      .map((doc) => this.paths[doc]!);
  }
}
