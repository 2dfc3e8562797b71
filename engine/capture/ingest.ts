import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import type { MemoryStore } from '../memory/memoryStore';
import { whileFoundClean } from '../extract/storedText';
import { DERIVED_WRITE } from '../store/durableDatabase';
import { redactedRecord } from './captureRedaction';
import type { CaptureAgent, ParsedRecord } from './events';
import type { RawRecord } from './rawRecords';
import { aiderFormat } from './readers/aider';
import type { CaptureFormat } from './readers/captureFormat';
import { formatOf } from './readers/captureFormat';
import { clineFormat, rooCodeFormat } from './readers/cline';
import { copilotFormat } from './readers/copilotChat';
import { claudeCodeFormat } from './readers/claudeCode';
import { codexFormat } from './readers/codex';
import { geminiFormat } from './readers/gemini';
import { openCodeFormat } from './readers/openCode';
import { parseState } from './readers/readerState';
import type { ReaderState } from './readers/readerState';
import { workspacePath, writeSessionRows } from './sessionRows';
import { SessionTimes } from './sessionTimes';
import { touchesExcluded } from './captureExcludes';
import { IngestSlices } from './ingestSlices';
import type { SourceFile } from './workspaceSources';

export const FORMATS: Record<CaptureAgent, CaptureFormat> = {
  'claude-code': claudeCodeFormat,
  codex: codexFormat,
  aider: aiderFormat,
  gemini: geminiFormat,
  copilot: copilotFormat,
  cline: clineFormat,
  'roo-code': rooCodeFormat,
  opencode: openCodeFormat,
};

export interface IngestOptions {
  root: string;
  /** Records per transaction at most (a batch also ends when it would outlast SLICE_MS). @default 256 */
  batchRecords?: number;
  /** The clock that times the slices, in ms (tests make it slow). @default performance.now */
  clock?: () => number;
  /** Bytes read from the file at a time (a longer record makes it grow). @default 4 MiB */
  chunkBytes?: number;
  /** Workspace-relative paths whose records are not kept (captureExcludes.ts). */
  excludePath?: (relative: string) => boolean;
}

export interface SourceReport {
  path: string;
  agent: CaptureAgent;
  /** Bytes of the file read in this run. */
  bytes: number;
  records: number;
  understood: number;
  unknown: number;
  malformed: number;
  /** Records that touched an excluded path: only their place is kept. */
  excluded: number;
  /** Records the ledger already held (a re-read), or of purged sessions: not stored again. */
  skipped: number;
  sessions: string[];
  /** A session kept as rows (OpenCode's) left rows unfinished: it is read again next time. */
  pending?: boolean;
}

export interface Prepared extends ParsedRecord {
  raw: RawRecord;
  stored: string;
  hash: string;
  /** `stored` came back unchanged from the secret patterns: the write policy need not scan it again. */
  clean: boolean;
}

/**
 * Reads what was appended to one session file since the last run and stores it: each batch of
 * records, their derived rows and the file's new offset and reader state in one transaction, so
 * a killed ingest leaves the file either before or after a batch, never inside one, and the next
 * run resumes there. A record the ledger already has at that offset with the same content hash
 * is skipped, so reading a file again never duplicates anything; a file that shrank was replaced,
 * and is read again from its start (its new records differ, so they are kept). Each record is redacted before
 * it is parsed or stored. Yields between batches so a long file never holds the thread.
 */
export async function ingestSource(
  store: MemoryStore,
  source: SourceFile,
  options: IngestOptions,
): Promise<SourceReport> {
  const format = formatOf(FORMATS[source.agent], source.path);
  const report = emptyReport(source);
  const sessions = new Set<string>();
  const saved = store.read((r) =>
    r.get<{ offset: number; state: string | null }>(
      'SELECT offset, state FROM capture_sources WHERE path = ?',
      [source.path],
    ),
  );
  const stat = await fsp.stat(source.path).catch(() => undefined);
  // Gone since it was listed (an agent cleaned up its old sessions): nothing to read.
  if (stat === undefined) return report;
  const size = stat.size;
  // A file shorter than what was read was replaced: read it again (the ledger skips what it has).
  let offset = saved !== undefined && saved.offset <= size ? saved.offset : 0;
  const fresh = format.initialState(source.path);
  // A file the agent rewrites keeps the reader's state when read again from its start.
  const keepState = offset > 0 || (format.rewrite !== undefined && saved !== undefined);
  const state: ReaderState = saved?.state && keepState ? { ...fresh, ...parseState(saved.state) } : fresh;
  // A document the agent rewrites whole is read again from its start whenever it changed.
  if (format.rewrite === 'whole') {
    if (saved !== undefined) offset = saved.offset !== size || state.fileMtime !== stat.mtimeMs ? 0 : size;
    state.fileMtime = stat.mtimeMs;
  }
  let chunk = options.chunkBytes ?? 4 * 1024 * 1024;
  const slices = new IngestSlices(options.clock ?? (() => performance.now()));
  const handle = await fsp.open(source.path, 'r');
  try {
    while (offset < size) {
      const length = Math.min(chunk, size - offset);
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, offset);
      const { records, consumed } = format.split(bytes.subarray(0, bytesRead), offset);
      if (consumed === offset) {
        if (offset + length >= size) break; // only an unfinished record is left
        chunk *= 2; // one record longer than the chunk
        continue;
      }
      const batch = options.batchRecords ?? 256;
      for (let i = 0; i < records.length;) {
        // A batch ends at `batch` records or when preparing and writing it would outlast a slice
        // (ingestSlices.ts), whichever is first: the thread is never held for long.
        const started = slices.start();
        const prepared: Prepared[] = [];
        while (i < records.length && prepared.length < batch && slices.fits(started, prepared.length)) {
          prepared.push(prepare(format, records[i++] as RawRecord, state, options));
        }
        const end = i >= records.length ? consumed : (prepared[prepared.length - 1] as Prepared).raw.end;
        writeBatch(
          store,
          slices,
          { source, root: options.root, prepared, offset: end, state },
          report,
          sessions,
        );
        report.bytes += end - offset;
        offset = end;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (records.length === 0) {
        report.bytes += consumed - offset;
        offset = consumed;
      }
    }
  } finally {
    await handle.close();
  }
  report.sessions = [...sessions];
  return report;
}

/** One transaction's worth: a source's prepared records and its progress after them. */
export interface Batch {
  source: SourceFile;
  root: string;
  prepared: readonly Prepared[];
  /** Where the next read starts, and the reader's state there. */
  offset: number;
  state: ReaderState;
}

/**
 * Stores a batch's records with the source's progress in one transaction, timed by `slices`
 * (which learns what a record's write costs), and counts them in `report` and `sessions`.
 */
export function writeBatch(
  store: MemoryStore,
  slices: IngestSlices,
  batch: Batch,
  report: SourceReport,
  sessions: Set<string>,
): void {
  const { source, prepared } = batch;
  const stateJson = JSON.stringify(batch.state);
  // The records were redacted moments ago: the write policy does not scan the clean ones again.
  const clean = prepared.filter((p) => p.clean).map((p) => p.stored);
  slices.write(prepared.length, () =>
    whileFoundClean(clean, () =>
      store.write((tx, now) => {
        const times = new SessionTimes();
        for (const p of prepared) {
          const outcome = storeRecord(tx, source, batch.root, p, now, times);
          report[outcome === 'stored' ? p.status : 'skipped']++;
          if (outcome === 'stored' && p.sessionId) sessions.add(p.sessionId);
        }
        times.flush(tx);
        tx.run(
          `INSERT INTO capture_sources (path, agent, offset, state, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (path) DO UPDATE SET offset = excluded.offset, state = excluded.state, updated_at = excluded.updated_at`,
          [source.path, source.agent, batch.offset, stateJson, now],
        );
      }, DERIVED_WRITE),
    ),
  );
  report.records += prepared.length;
}

export function emptyReport(source: SourceFile): SourceReport {
  return {
    path: source.path,
    agent: source.agent,
    bytes: 0,
    records: 0,
    understood: 0,
    unknown: 0,
    malformed: 0,
    excluded: 0,
    skipped: 0,
    sessions: [],
  };
}

/** A record that touched an excluded path keeps only its place in the file. */
const EXCLUDED_STUB = '{"excluded":"the record touched an excluded path"}';

export function prepare(
  format: CaptureFormat,
  raw: RawRecord,
  state: ReaderState,
  options: IngestOptions,
): Prepared {
  const redacted = redactedRecord(raw.text);
  let parsed = format.parse(redacted.text, state, redacted.value);
  let stored = redacted.text;
  let clean = redacted.clean;
  const { excludePath, root } = options;
  if (excludePath) {
    const calls = new Set(state.excludedCalls ?? []);
    const excluded = (file: string) => excludePath(workspacePath(file, state.cwd ?? root, root));
    if (touchesExcluded(parsed.events, excluded, calls)) {
      state.excludedCalls = [...calls].slice(-200);
      parsed = {
        sessionId: parsed.sessionId,
        status: 'excluded',
        events: [],
        ...(parsed.at === undefined ? {} : { at: parsed.at }),
      };
      stored = EXCLUDED_STUB;
      clean = false;
    }
  }
  return {
    ...parsed,
    raw,
    stored,
    clean,
    hash: createHash('sha256').update(stored).digest('hex').slice(0, 32),
  };
}

function storeRecord(
  tx: Parameters<Parameters<MemoryStore['write']>[0]>[0],
  source: SourceFile,
  root: string,
  p: Prepared,
  now: number,
  times: SessionTimes,
): 'stored' | 'skipped' {
  if (
    p.sessionId &&
    tx.value('SELECT 1 FROM capture_purged WHERE session_id = ?', [p.sessionId]) !== undefined
  ) {
    return 'skipped';
  }
  const inserted = tx.run(
    `INSERT OR IGNORE INTO capture_records (source, offset, length, content_hash, session_id, status, raw, at, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      source.path,
      p.raw.offset,
      p.raw.end - p.raw.offset,
      p.hash,
      p.sessionId ?? null,
      p.status,
      p.stored,
      p.at ?? null,
      now,
    ],
  );
  if (inserted === 0) return 'skipped';
  const recordId = tx.value<number>('SELECT last_insert_rowid()') as number;
  // A record with no events still widens its session's times.
  if (p.sessionId && (p.events.length > 0 || p.at !== undefined)) {
    const context = {
      agent: source.agent,
      source: source.path,
      sessionId: p.sessionId,
      recordId,
      at: p.at,
      root,
    };
    writeSessionRows(tx, context, p.events, times);
  }
  return 'stored';
}
