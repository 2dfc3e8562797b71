import type { Memory } from '../engine/index';

/** A span of a file as character offsets (what Remember Selection stores as `source.start/end`). */
export interface SourceSpan {
  start: number;
  end: number;
  /** Whether the span still holds the remembered text, or is only where it was. */
  exact: boolean;
}

/**
 * Where a memory made from a selection is in its file now. The stored offsets are right until the
 * file changes above them, so they are trusted only while they still hold the remembered text;
 * otherwise the text is looked for (the nearest occurrence to where it was), and, when it was
 * edited away, the stored lines (`file:3-5` in the context) or offsets are where it used to be.
 */
export function locateSource(
  text: string,
  memory: Pick<Memory, 'content' | 'source' | 'context'>,
): SourceSpan | undefined {
  const source = memory.source;
  if (!source?.file) return undefined;
  const wanted = memory.content.trim();
  const { start, end } = source;
  if (start !== undefined && end !== undefined && text.slice(start, end).trim() === wanted && wanted !== '')
    return { start, end, exact: true };
  if (wanted !== '') {
    let best: number | undefined;
    for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1))
      if (best === undefined || Math.abs(at - (start ?? 0)) < Math.abs(best - (start ?? 0))) best = at;
    if (best !== undefined) return { start: best, end: best + wanted.length, exact: true };
  }
  const lines = /:(\d+)(?:-(\d+))?$/.exec(memory.context ?? '');
  if (lines && memory.context?.startsWith(`${source.file}:`)) {
    const first = Number(lines[1]);
    const last = Number(lines[2] ?? lines[1]);
    return { ...lineSpan(text, first, last), exact: false };
  }
  if (start !== undefined) {
    const from = Math.min(start, text.length);
    return { start: from, end: Math.min(Math.max(end ?? from, from), text.length), exact: false };
  }
  return { start: 0, end: 0, exact: false };
}

/** Offsets of 1-based lines `first..last`, clamped to the text. */
function lineSpan(text: string, first: number, last: number): { start: number; end: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineStart = (n: number) => starts[Math.min(Math.max(n, 1), starts.length) - 1] ?? 0;
  const lineEnd = (n: number) => {
    const next = starts[Math.min(Math.max(n, 1), starts.length)];
    return next === undefined ? text.length : next - 1;
  };
  return { start: lineStart(first), end: Math.max(lineStart(first), lineEnd(last)) };
}
