import { createHash } from 'node:crypto';
import type { MemoryStore } from '../memory/memoryStore';
import { FORMATS, emptyReport, prepare, writeBatch } from './ingest';
import { IngestSlices } from './ingestSlices';
import type { IngestOptions, Prepared, SourceReport } from './ingest';
import type { RowSource } from './openCode/openCodeSources';
import { parseState } from './readers/readerState';
import type { ReaderState } from './readers/readerState';

/**
 * Reads a session kept as rows (OpenCode's) into the ledger, as ingestSource does for a file:
 * each row is one record, its `offset` a number made from the row's key (a row has no place in a
 * file), and a row the ledger has is never read again, so a re-read, or a run killed between two
 * batches, adds nothing twice. Only finished rows come (openCodeRecords.ts); the source's
 * signature and whether rows were left unfinished are kept with the reader's state, so a session
 * that did not change since it was read whole is not loaded at all.
 */
export async function ingestRows(
  store: MemoryStore,
  source: RowSource,
  options: IngestOptions & { now: number },
): Promise<SourceReport> {
  const report = emptyReport(source);
  const format = FORMATS[source.agent];
  const saved = store.read((r) =>
    r.get<{ state: string | null }>('SELECT state FROM capture_sources WHERE path = ?', [source.path]),
  );
  const state: ReaderState = { ...format.initialState(source.path), ...parseState(saved?.state) };
  if (state.rows?.signature === source.signature && !state.rows.pending) return report;
  const { records, pending } = await source.load(options.now);
  const known = new Set(
    store.read((r) =>
      r
        .all<{ offset: number }>('SELECT offset FROM capture_records WHERE source = ?', [source.path])
        .map((row) => row.offset),
    ),
  );
  const fresh = records
    .map((record) => ({ offset: rowOffset(record.key), text: record.text }))
    .filter((record) => !known.has(record.offset));
  const sessions = new Set<string>();
  const slices = new IngestSlices(options.clock ?? (() => performance.now()));
  let i = 0;
  do {
    const started = slices.start();
    const prepared: Prepared[] = [];
    while (i < fresh.length && slices.fits(started, prepared.length)) {
      const { offset, text } = fresh[i++] as { offset: number; text: string };
      prepared.push(prepare(format, { offset, end: offset + text.length, text }, state, options));
    }
    // The signature is kept only with the last batch: a run killed before it loads the session again.
    const last = i >= fresh.length;
    state.rows = last ? { signature: source.signature, pending } : { signature: '', pending: true };
    const batch = { source, root: options.root, prepared, offset: known.size + i, state };
    writeBatch(store, slices, batch, report, sessions);
    report.bytes += prepared.reduce((sum, p) => sum + Buffer.byteLength(p.raw.text), 0);
    if (!last) await new Promise((resolve) => setImmediate(resolve));
  } while (i < fresh.length);
  report.sessions = [...sessions];
  report.pending = pending;
  return report;
}

/** A row's place in the ledger: 48 bits of its key's hash (a safe integer; rows never collide in practice). */
function rowOffset(key: string): number {
  return createHash('sha256').update(key).digest().readUIntBE(0, 6);
}
