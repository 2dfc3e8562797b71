import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { EngramError } from '../errors';
import { fsyncDirectory, writeFileAtomic } from './fsync';
import { Journal } from './journal';
import { JOURNAL_HEADER_BYTES, JOURNAL_MAGIC, scanJournal } from './journalScan';
import type { ScannedFrame } from './journalScan';
import { applyRecord } from './replay';
import { emptyDatabase, loadSnapshot, readMeta } from './snapshotFile';
import { storeFiles } from './storeFiles';

export interface RecoverOptions {
  /** The database file, e.g. `<workspace>/.engram/memory.db`. */
  path: string;
  sql: SqlJsStatic;
  /** Rebuild even when some transactions are in no intact file, keeping every other one. @default false */
  acceptLoss?: boolean;
}

export interface RecoverReport {
  database: string;
  /** The snapshot the rebuild started from, or `an empty database` when the journal goes back to the start. */
  rebuiltFrom: string;
  /** Journal transactions applied on top of it. */
  replayed: number;
  /** The rebuilt database's last transaction: new writes continue after it, never reusing a number. */
  lastSeq: number;
  /** Transactions no intact file holds (only with `acceptLoss`). */
  lost: number[];
  /** Intact transactions that failed to apply without a lost one before them (only with `acceptLoss`). */
  skipped: number[];
  /** Copies of the files the rebuild replaced: nothing is deleted. */
  keptAside: string[];
  /** Damaged journal copies (`<journal>.damaged-*`) whose intact records were used. */
  salvagedFrom: string[];
}

interface Base {
  label: string;
  seq: number;
  load: () => Database;
}

/**
 * Rebuilds a database from whatever is intact: the newest readable snapshot (`memory.db`, its `.prev`,
 * or an empty database when the journal reaches back to transaction 1), then every intact journal
 * record after it, from the journal and from the damaged copies open() kept. The result replaces the
 * database, its `.prev` and the journal (the old files are copied aside first).
 *
 * When some transaction is in no intact file (or the journal is missing), the rebuild would lose
 * writes: it is refused with nothing changed, unless `acceptLoss` says to keep all the rest.
 */
export function recoverStore(options: RecoverOptions): Promise<RecoverReport> {
  return Promise.resolve().then(() => recoverNow(options));
}

function recoverNow({ path: databasePath, sql, acceptLoss = false }: RecoverOptions): RecoverReport {
  const files = storeFiles(databasePath);
  const notes: string[] = [];
  const bases: Base[] = [];
  let dbId: string | undefined;
  for (const file of [files.database, files.previous]) {
    if (!existsSync(file)) {
      notes.push(`${file} is missing`);
      continue;
    }
    try {
      const db = loadSnapshot(sql, file, '');
      try {
        dbId ??= readMeta(db, 'db_id');
        const seq = Number(readMeta(db, 'journal_seq'));
        bases.push({ label: file, seq, load: () => loadSnapshot(sql, file, '') });
      } finally {
        db.close();
      }
    } catch {
      notes.push(`${file} is damaged`);
    }
  }

  const problems: string[] = [];
  const journal = readJournal(files.journal);
  if (journal === 'missing') problems.push(`the journal ${files.journal} is missing`);
  else if (journal === 'unreadable') problems.push(`the journal ${files.journal} is shorter than its header`);
  if (typeof journal === 'object' && dbId === undefined && /^[0-9a-f]{32}$/.test(journal.owner))
    dbId = journal.owner;
  if (dbId === undefined) {
    throw new EngramError('NOT_FOUND', `nothing to rebuild ${databasePath} from: ${notes.join(', ')}`);
  }
  const id = dbId;
  bases.sort((a, b) => b.seq - a.seq);
  bases.push({ label: 'an empty database', seq: 0, load: () => emptyDatabase(sql, id) });

  const records = new Map<number, ScannedFrame>();
  let tailLost: number | undefined;
  if (typeof journal === 'object') {
    if (journal.owner !== dbId) problems.push(`the journal ${files.journal} belongs to another database`);
    else {
      for (const frame of journal.frames) records.set(frame.record.seq, frame);
      const tail = journal.damagedTail;
      if (tail !== undefined) tailLost = tail + 1;
    }
  }
  const { used: salvagedFrom, reusedFrom } = salvageCopies(files.journal, dbId, records, problems);
  if (reusedFrom !== undefined) {
    for (let i = bases.length - 1; i >= 0; i--) if (bases[i]!.seq >= reusedFrom) bases.splice(i, 1);
  }

  const seqs = [...records.keys(), ...bases.map((b) => b.seq), ...(tailLost === undefined ? [] : [tailLost])];
  const lastSeq = Math.max(...seqs);
  const missingAfter = (base: Base) => {
    const missing: number[] = [];
    for (let seq = base.seq + 1; seq <= lastSeq; seq++) if (!records.has(seq)) missing.push(seq);
    return missing;
  };
  // The newest base that loses the fewest transactions.
  let chosen = bases[0]!;
  let lost = missingAfter(chosen);
  for (const base of bases.slice(1)) {
    const missing = missingAfter(base);
    if (missing.length < lost.length) [chosen, lost] = [base, missing];
  }
  if (lost.length > 0) problems.push(`transaction ${ranges(lost)} is in no intact file`);
  if (problems.length > 0 && !acceptLoss) {
    throw new EngramError(
      'CORRUPT',
      `cannot rebuild ${databasePath} without loss: ${problems.join('; ')}` +
        `${notes.length > 0 ? ` (${notes.join(', ')})` : ''}; nothing was changed: ` +
        'run `engram recover --accept-loss` to keep every transaction that can be saved',
      { database: databasePath },
    );
  }

  const { bytes, replayed, skipped } = rebuild(chosen, records, lastSeq, acceptLoss);
  const keptAside = replaceFiles(files, bytes, dbId);
  return {
    database: databasePath,
    rebuiltFrom: chosen.label,
    replayed,
    lastSeq,
    lost,
    skipped,
    keptAside,
    salvagedFrom,
  };
}

type JournalRead =
  'missing' | 'unreadable' | { owner: string; frames: ScannedFrame[]; damagedTail: number | undefined };

function readJournal(file: string): JournalRead {
  if (!existsSync(file)) return 'missing';
  const bytes = readFileSync(file);
  if (bytes.length < JOURNAL_HEADER_BYTES) return 'unreadable';
  // A damaged magic does not make the records unreadable; the owner id still has to match.
  const owner = bytes.subarray(JOURNAL_MAGIC.length, JOURNAL_HEADER_BYTES).toString('latin1');
  const scan = scanJournal(bytes);
  // Damage at the end that is not a torn append lost the transaction after the last intact one.
  const tail = scan.damaged.find((range) => range.before === undefined);
  return { owner, frames: scan.frames, damagedTail: tail ? (tail.after ?? 0) : undefined };
}

/**
 * Adds the intact records of the damaged journal copies that the journal no longer has. Returns the
 * copies used, and the first transaction number an older version reused (bases at or after it hold
 * the reused writes without the ones they replaced, so they cannot be rebuilt on).
 */
function salvageCopies(
  journalPath: string,
  dbId: string,
  records: Map<number, ScannedFrame>,
  problems: string[],
): { used: string[]; reusedFrom: number | undefined } {
  const dir = path.dirname(journalPath);
  const prefix = `${path.basename(journalPath)}.damaged-`;
  const copies = readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .sort()
    .reverse()
    .map((name) => path.join(dir, name));
  const used: string[] = [];
  let reusedFrom: number | undefined;
  for (const copy of copies) {
    const read = readJournal(copy);
    if (typeof read !== 'object' || read.owner !== dbId) continue;
    const conflict = read.frames.find((f) => {
      const known = records.get(f.record.seq);
      return known !== undefined && !known.frame.equals(f.frame);
    });
    if (conflict && !renumberReused(records, read.frames, conflict.record.seq)) {
      problems.push(`${copy} holds another transaction ${conflict.record.seq} than the journal`);
      continue;
    }
    if (conflict) reusedFrom = Math.min(reusedFrom ?? Infinity, conflict.record.seq);
    let added = false;
    for (const frame of read.frames) {
      if (records.has(frame.record.seq)) continue;
      records.set(frame.record.seq, frame);
      added = true;
    }
    if (added) used.push(copy);
  }
  return { used, reusedFrom };
}

/**
 * An older version cut a damaged journal, kept the copy, and numbered the next writes as if the cut
 * records had never been: from `from` on, the journal's records are later writes than the copy's.
 * They move after the copy's last record (the numbers are not part of what a record does), so both
 * are kept, in the order they were written. False when the times do not show that order.
 */
function renumberReused(
  records: Map<number, ScannedFrame>,
  copyFrames: ScannedFrame[],
  from: number,
): boolean {
  const later = [...records.values()]
    .filter((f) => f.record.seq >= from)
    .sort((a, b) => a.record.seq - b.record.seq);
  const replaced = copyFrames.filter((f) => f.record.seq >= from);
  const lastReplaced = Math.max(...replaced.map((f) => f.record.at));
  if (later.some((f) => f.record.at < lastReplaced)) return false;
  let seq = Math.max(...copyFrames.map((f) => f.record.seq));
  for (const frame of later) {
    records.delete(frame.record.seq);
    seq++;
    records.set(seq, { ...frame, record: { ...frame.record, seq } });
  }
  return true;
}

function rebuild(
  base: Base,
  records: Map<number, ScannedFrame>,
  lastSeq: number,
  acceptLoss: boolean,
): { bytes: Uint8Array; replayed: number; skipped: number[] } {
  const db = base.load();
  try {
    let replayed = 0;
    const skipped: number[] = [];
    for (let seq = base.seq + 1; seq <= lastSeq; seq++) {
      const frame = records.get(seq);
      if (!frame) continue;
      try {
        applyRecord(db, frame.record);
        replayed++;
      } catch (error) {
        if (!acceptLoss) throw error;
        skipped.push(seq);
      }
    }
    // Lost transactions keep their numbers: the next write comes after every one ever written.
    db.run("UPDATE engram_meta SET value = ? WHERE key = 'journal_seq'", [String(lastSeq)]);
    return { bytes: db.export(), replayed, skipped };
  } finally {
    db.close();
  }
}

/**
 * Copies the database, `.prev` and journal aside, then writes the rebuilt snapshot as both, and an
 * empty journal. The database comes first: a crash after it leaves a snapshot that holds every
 * record of the old journal, so the old journal replays nothing.
 */
function replaceFiles(files: ReturnType<typeof storeFiles>, bytes: Uint8Array, dbId: string): string[] {
  const stamp = Date.now();
  const keptAside: string[] = [];
  for (const file of [files.database, files.previous, files.journal]) {
    if (!existsSync(file)) continue;
    const aside = `${file}.before-recover-${stamp}`;
    copyFileSync(file, aside);
    keptAside.push(aside);
  }
  fsyncDirectory(path.dirname(files.database));
  writeFileAtomic(files.database, bytes);
  writeFileAtomic(files.previous, bytes);
  writeFileAtomic(files.journal, Journal.header(dbId));
  return keptAside;
}

/** 3, 5-9, 12: a list of transaction numbers, short. */
export function ranges(seqs: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j]! + 1) j++;
    parts.push(i === j ? `${seqs[i]}` : `${seqs[i]}-${seqs[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
