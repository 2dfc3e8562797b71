import { createHash } from 'node:crypto';

/** How much of a file the binary sniff reads: git's heuristic looks at the first 8000 bytes too. */
const SNIFF_BYTES = 8000;

/** A NUL byte near the start means binary: text encodings the scanner reads never contain one. */
export function looksBinary(content: Uint8Array): boolean {
  return content.subarray(0, SNIFF_BYTES).includes(0);
}

/**
 * Minified or machine-generated source: a few enormous lines. Parsing one costs like a thousand
 * ordinary files and its "symbols" would be single letters.
 */
export function looksMinified(text: string): boolean {
  if (text.length < 4096) return false;
  const lines = text.split('\n', 200);
  const longest = lines.reduce((max, line) => Math.max(max, line.length), 0);
  return longest > 2000 && text.length / Math.max(1, countLines(text)) > 300;
}

export function contentHash(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
