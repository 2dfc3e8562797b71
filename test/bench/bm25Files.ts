import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const K1 = 1.2;
const B = 0.75;
/** Larger files are data, not code, for a baseline as for the scanner. */
const MAX_FILE_BYTES = 1024 * 1024;

/** The baseline's whole tokenizer: lower-case runs of ASCII letters and digits. */
function tokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/**
 * A plain BM25 over whole files (k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5) / (df + 0.5))): the
 * baseline the localisation benchmark compares Engram with. Deliberately naive: no identifier
 * splitting, no stemming, no structure.
 */
export class Bm25Files {
  private readonly postings = new Map<string, Array<{ doc: number; tf: number }>>();
  private readonly lengths: number[] = [];

  private constructor(private readonly paths: string[]) {}

  /** Every git-tracked text file of the work tree (no NUL byte, at most 1 MiB). */
  static fromWorkTree(root: string): Bm25Files {
    const listed = execFileSync('git', ['-C', root, 'ls-files', '-z'], { maxBuffer: 1 << 28 })
      .toString('utf8')
      .split('\0')
      .filter((p) => p !== '');
    const docs: Array<{ path: string; text: string }> = [];
    for (const relative of listed) {
      const file = path.join(root, relative);
      try {
        if (!statSync(file).isFile() || statSync(file).size > MAX_FILE_BYTES) continue;
        const content = readFileSync(file);
        if (content.includes(0)) continue;
        docs.push({ path: relative, text: content.toString('utf8') });
      } catch {
        continue;
      }
    }
    const index = new Bm25Files(docs.map((d) => d.path));
    docs.forEach((d, i) => index.add(i, d.text));
    return index;
  }

  private add(doc: number, text: string): void {
    const counts = new Map<string, number>();
    const all = tokens(text);
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
    for (const term of new Set(tokens(query))) {
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
