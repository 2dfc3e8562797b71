import { readFileSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { EngramError, invalidInput } from '../errors';
import { exportLines, importEngramLines, parseEngramLines } from '../exchange/engramJsonl';
import { renderMarkdown } from '../exchange/markdownExport';
import { importMcpMemory } from '../exchange/mcpMemoryImport';
import type { MemoryStore } from '../memory/memoryStore';
import { listMemories } from '../memory/memoryQueries';
import { hiddenIds, viewerOf } from '../memory/visibility';
import { indexMissing } from '../lexical/lexicalIndex';
import { schemaVersion } from '../store/migrate';
import type { EXPORT_PARAMS, IMPORT_PARAMS } from './memoryParams';

/**
 * `export` {format? (jsonl by default), file?}: the memories as text, or written to `file`.
 * `import` {from? (engram by default), file? | text?}: an Engram export or an MCP memory server file.
 */

export function exportMemories(store: MemoryStore, p: z.output<typeof EXPORT_PARAMS>) {
  const format = p.format ?? 'jsonl';
  const now = store.clock();
  // An agent's export leaves out other agents' private memories; the owner's holds everything.
  const viewer = viewerOf(p);
  const body = store.read((r) => {
    if (format === 'md') {
      const all = [];
      for (let offset: number | null = 0; offset !== null;) {
        const page = listMemories(r, { status: 'active', limit: 10_000, offset }, viewer);
        all.push(...page.items);
        offset = page.next;
      }
      return renderMarkdown(all, 'Engram memories', now);
    }
    return [...exportLines(r, schemaVersion(r), now, hiddenIds(r, viewer))].join('\n') + '\n';
  });
  const file = p.file;
  if (file === undefined) return { format, text: body };
  try {
    writeFileSync(file, body, { mode: 0o600 });
  } catch (error) {
    // An expected failure (a missing folder, no permission): one line, not a logged crash.
    throw invalidInput(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return { format, file, bytes: Buffer.byteLength(body) };
}

export function importMemories(store: MemoryStore, p: z.output<typeof IMPORT_PARAMS>) {
  const from = p.from ?? 'engram';
  const file = p.file;
  let body = p.text;
  if (body === undefined) {
    if (file === undefined) throw invalidInput('import needs a file or text');
    try {
      body = readFileSync(file, 'utf8');
    } catch (error) {
      throw new EngramError(
        'NOT_FOUND',
        `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
  }
  const lines = body.split(/\r?\n/);
  if (from === 'mcp-memory') return { from, ...importMcpMemory(store, lines) };
  const parsed = store.read((r) => parseEngramLines(r, lines, store.limits));
  const counts = store.write((tx) => {
    const imported = importEngramLines(tx, parsed);
    indexMissing(tx);
    store.textChanged();
    return imported;
  });
  store.entitiesChanged();
  return { from, counts };
}
