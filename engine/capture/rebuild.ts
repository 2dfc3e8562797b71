import type { MemoryStore } from '../memory/memoryStore';
import { FORMATS } from './ingest';
import { formatOf } from './readers/captureFormat';
import type { CaptureAgent } from './events';
import { linkCommits } from './link/commitLinks';
import { writeSessionRows } from './sessionRows';
import { SessionTimes } from './sessionTimes';
import { writeSessionSummaries } from './sessionSummary';

const DERIVED = [
  'capture_turns',
  'capture_tool_calls',
  'capture_file_touches',
  'capture_commands',
  'capture_sessions',
];

export interface RebuildReport {
  files: number;
  records: number;
  sessions: number;
  summaries: number;
  /** Links to commits made again from the rebuilt file touches and the repository. */
  links: number;
  /** Sessions whose links were kept as they were: git could not read their commits (LinkReport.unread). */
  linksUnread: number;
}

/**
 * Derives sessions, turns, tool calls, file touches and commands again from the ledger alone (the
 * agents' files are not read): after a reader learned more of a format, or to check that nothing
 * but the ledger is needed. One transaction per file, so a killed rebuild leaves each file's
 * sessions either as they were or rebuilt. The readers parse the stored (redacted) records in the
 * order they were read (a replaced file's new records follow the old ones), as ingest did, so the
 * result is what ingest made.
 */
export async function rebuildCapture(store: MemoryStore, root: string): Promise<RebuildReport> {
  const sources = store.read((r) =>
    r.all<{ path: string; agent: CaptureAgent }>('SELECT path, agent FROM capture_sources ORDER BY path'),
  );
  const report: RebuildReport = {
    files: 0,
    records: 0,
    sessions: 0,
    summaries: 0,
    links: 0,
    linksUnread: 0,
  };
  const rebuilt = new Set<string>();
  for (const source of sources) {
    const format = formatOf(FORMATS[source.agent], source.path);
    store.write((tx) => {
      const records = tx.all<{ id: number; raw: string; status: string; session_id: string | null }>(
        'SELECT id, raw, status, session_id FROM capture_records WHERE source = ? ORDER BY id',
        [source.path],
      );
      const sessions = new Set(records.map((r) => r.session_id).filter((s): s is string => s !== null));
      for (const session of sessions)
        for (const table of DERIVED)
          tx.run(`DELETE FROM ${table} WHERE ${table === 'capture_sessions' ? 'id' : 'session_id'} = ?`, [
            session,
          ]);
      const state = format.initialState(source.path);
      const times = new SessionTimes();
      for (const record of records) {
        if (record.status === 'excluded') continue; // only its place was kept
        const parsed = format.parse(record.raw, state);
        if (parsed.status !== record.status || (parsed.sessionId ?? null) !== record.session_id) {
          tx.run('UPDATE capture_records SET status = ?, session_id = ? WHERE id = ?', [
            parsed.status,
            parsed.sessionId ?? null,
            record.id,
          ]);
        }
        if (!parsed.sessionId || (parsed.events.length === 0 && parsed.at === undefined)) continue;
        const context = {
          agent: source.agent,
          source: source.path,
          sessionId: parsed.sessionId,
          recordId: record.id,
          at: parsed.at,
          root,
        };
        writeSessionRows(tx, context, parsed.events, times);
        rebuilt.add(parsed.sessionId);
      }
      times.flush(tx);
      report.records += records.length;
    });
    report.files++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  report.sessions = rebuilt.size;
  const linked = await linkCommits(store, root, [...rebuilt], Date.now());
  report.links = linked.links;
  report.linksUnread = linked.unread;
  report.summaries = await writeSessionSummaries(store, [...rebuilt]);
  return report;
}
