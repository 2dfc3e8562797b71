/**
 * The memories of the labelled drift benchmark: a Markdown document split into blocks at blank
 * lines, never inside a fenced code block; a fence right after a paragraph that ends with ':'
 * belongs to that paragraph (it is the example the sentence introduces). Lines are 1-based and
 * inclusive, as in the label files.
 */
export interface DocBlock {
  startLine: number;
  endLine: number;
  text: string;
}

const FENCE_RE = /^\s*(```|~~~)/;

export function docBlocks(markdown: string, minChars = 30, maxChars = 4000): DocBlock[] {
  const lines = markdown.split('\n');
  const raw: Array<{ start: number; end: number; fenced: boolean }> = [];
  let start = -1;
  let fence: string | undefined;
  let fenced = false;
  const close = (end: number) => {
    if (start !== -1) raw.push({ start, end, fenced });
    start = -1;
    fenced = false;
  };
  lines.forEach((line, i) => {
    const marker = FENCE_RE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker === fence) fence = undefined;
      return;
    }
    if (marker !== undefined) {
      if (start === -1) start = i;
      fence = marker;
      fenced = true;
      return;
    }
    if (line.trim() === '') close(i - 1);
    else if (start === -1) start = i;
  });
  close(lines.length - 1);
  // A fenced block that opens the block right after a paragraph ending with ':' joins it.
  const merged: Array<{ start: number; end: number }> = [];
  for (const block of raw) {
    const previous = merged[merged.length - 1];
    const opensWithFence = FENCE_RE.test(lines[block.start] ?? '');
    if (previous && opensWithFence && (lines[previous.end] ?? '').trimEnd().endsWith(':'))
      previous.end = block.end;
    else merged.push({ start: block.start, end: block.end });
  }
  return merged
    .map((b) => ({
      startLine: b.start + 1,
      endLine: b.end + 1,
      text: lines.slice(b.start, b.end + 1).join('\n'),
    }))
    .filter((b) => b.text.length >= minChars && b.text.length <= maxChars);
}

/** Blocks a reader could check against the project: inline code, a fence, a path or a link. */
export function isCandidate(text: string): boolean {
  return /`|\]\(|[\w.-]+\/[\w.-]+\.\w{1,5}\b/.test(text);
}
