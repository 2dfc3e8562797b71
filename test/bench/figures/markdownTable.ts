/**
 * A Markdown table laid out the way prettier lays it out (every column padded to its widest cell,
 * the separator as wide), so a rendered block passes `prettier --check` and `npm run figures`
 * never fights the formatter. Cells are plain ASCII: prettier measures East Asian characters as
 * two columns, which `length` would not.
 */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  for (const row of rows)
    if (row.length !== header.length)
      throw new Error(`markdownTable: expected ${header.length} cells a row, got ${row.length}`);
  const widths = header.map((title, i) =>
    Math.max(3, title.length, ...rows.map((row) => row[i]!.replaceAll('|', '\\|').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => cell.replaceAll('|', '\\|').padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A rate as the benches print it: three decimals. */
export const decimal3 = (value: number) => (Math.round(value * 1000) / 1000).toFixed(3);
