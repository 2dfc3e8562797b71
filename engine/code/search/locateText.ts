import type { LocateResult } from './locate';

/** One line per file: rank, path, role, what matched (channel ranks, fields), then its best symbols. */
export function locateText(result: LocateResult): string {
  if (result.files.length === 0) return result.trace.note ?? 'no files match';
  return result.files
    .map((f, i) => {
      const code = f.channels.code;
      const why = [
        ...(code
          ? [
              `code #${code.rank} (${Object.entries(code.fields)
                .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
                .map(([field]) => field)
                .join(', ')})${code.prior < 1 ? ` x${code.prior} ${f.role}` : ''}`,
            ]
          : []),
        ...(f.channels.recall ? [`recall #${f.channels.recall.rank}`] : []),
        ...(f.channels.map ? [`map #${f.channels.map.rank}`] : []),
      ];
      const symbols = f.symbols.map((s) => `${s.container ? `${s.container}.` : ''}${s.name}:${s.line}`);
      return `${String(i + 1).padStart(2)}. ${f.path}  [${why.join('; ')}]${symbols.length ? `  ${symbols.join(', ')}` : ''}`;
    })
    .join('\n');
}
