/**
 * Generated blocks in a Markdown text: found, compared with what their renderer makes, and
 * rewritten in place. A block's lines between its markers are a blank line, the rendered text and
 * a blank line (what prettier keeps around a table); the prose outside the markers is never touched.
 */
const MARKER = /^<!-- figures:([a-z0-9-]+):(begin|end) -->$/;

export interface GeneratedBlock {
  name: string;
  /** 0-based indexes of the marker lines. */
  begin: number;
  end: number;
}

/** The blocks of `lines`, in order; a marker without its partner or one block inside another is an error. */
export function findBlocks(lines: readonly string[], file: string): GeneratedBlock[] {
  const blocks: GeneratedBlock[] = [];
  let open: { name: string; begin: number } | undefined;
  lines.forEach((line, i) => {
    const marker = MARKER.exec(line.trim());
    if (!marker) return;
    const name = marker[1]!;
    if (marker[2] === 'begin') {
      if (open) throw new Error(`${file}:${i + 1}: figures block "${name}" begins inside "${open.name}"`);
      open = { name, begin: i };
    } else {
      if (open?.name !== name)
        throw new Error(`${file}:${i + 1}: figures block "${name}" ends but was not begun`);
      blocks.push({ ...open, end: i });
      open = undefined;
    }
  });
  if (open) throw new Error(`${file}:${open.begin + 1}: figures block "${open.name}" has no end marker`);
  return blocks;
}

const bodyOf = (rendered: string) => ['', ...rendered.split('\n'), ''];

/** One line per block that differs from its rendering: the block, and its first differing line. */
export function staleBlocks(text: string, file: string, render: (name: string) => string): string[] {
  const lines = text.split('\n');
  const problems: string[] = [];
  for (const block of findBlocks(lines, file)) {
    const documented = lines.slice(block.begin + 1, block.end);
    const expected = bodyOf(render(block.name));
    const at = firstDifference(documented, expected);
    if (at === undefined) continue;
    problems.push(
      `${file}:${block.begin + 2 + at}: figures block "${block.name}" differs from its record at its ` +
        `line ${at + 1}: documented ${quote(documented[at])}, recorded ${quote(expected[at])} ` +
        '(run `npm run figures`; never edit a generated block by hand)',
    );
  }
  return problems;
}

/** `text` with every block's lines replaced by its rendering. */
export function rewriteBlocks(text: string, file: string, render: (name: string) => string): string {
  const lines = text.split('\n');
  // From the last block back, so earlier indexes stay valid.
  for (const block of findBlocks(lines, file).reverse())
    lines.splice(block.begin + 1, block.end - block.begin - 1, ...bodyOf(render(block.name)));
  return lines.join('\n');
}

function firstDifference(a: readonly string[], b: readonly string[]): number | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return undefined;
}

const quote = (line: string | undefined) => (line === undefined ? '(nothing)' : JSON.stringify(line));
