import { randomBytes, randomUUID } from 'node:crypto';
import { EngineDispatcher } from '../api/engineDispatcher';
import type { HostOptions } from '../api/engineDispatcher';
import { isMethodName, METHODS } from '../api/methods';
import { EngramError } from '../errors';
import { MIGRATIONS } from '../memory/schema';
import type { EngineRole, SharedEngine } from '../process/sharedEngine';
import { runMigrations } from '../store/migrate';
import { emptyDatabase } from '../store/snapshotFile';
import { loadSqlJs } from '../store/sqlite';
import { PgJournal } from './pgJournal';
import type { LockedJournal } from './pgJournal';
import { searchLexicalInPostgres } from './pgLexicalSearch';
import { searchVectorsInPostgres } from './pgVectorSearch';
import { allDocuments, changedDocuments, syncRecallRows } from './recallRowSync';
import type { ReplicaRead } from './recallRowSync';
import { clearRecallTables, markRowsBuilt, rowsBuiltAt } from './recallTables';
import { ReplicaDatabase } from './replicaDatabase';
import { ServedWork } from './servedWork';
import type { ServedOps } from './servedWork';
import { claimDocuments, lastRun, markRun } from './storeClaims';

/** What the replicated engine opens with: the engine's options without a database file. */
export type ReplicatedHostOptions = Omit<HostOptions, 'dbPath' | 'openDatabase'>;

export interface ReplicationPolicy {
  /** A snapshot is written once this many records were appended after the newest one. @default 1000 */
  snapshotEvery: number;
}

const DEFAULT_POLICY: ReplicationPolicy = { snapshotEvery: 1000 };

/** Raised when PostgreSQL pruned records this replica still lacks: it reloads, then runs again. */
const BEHIND = 'replicaBehind';

/**
 * The engine of one team server process over a PostgreSQL store (pgJournal.ts): calls run one at
 * a time on this process's replica (replicaDatabase.ts), which is first brought up to date with
 * the records other processes appended.
 *
 * A write method runs inside a PostgreSQL transaction holding the write lock: catch up, run the
 * call with its local writes held, append their records, COMMIT, and only then keep them locally
 * and answer. If anything fails, the held writes are rolled back and the caller gets
 * UNAVAILABLE (503: re-send with the same request id; `applied_requests` is in the replicated
 * state, so a write that did commit is answered from its kept result, from any process).
 * Other methods run without the lock; the few that write (read events, session marks) append
 * only if nothing was appended meanwhile, else they run again as a write.
 */
export class ReplicatedEngine implements SharedEngine {
  readonly role: EngineRole = 'host';
  private queue: Promise<unknown> = Promise.resolve();
  private snapshotSeq = 0;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly served: ServedWork,
    private readonly journal: PgJournal,
    private readonly options: ReplicatedHostOptions,
    private readonly policy: ReplicationPolicy,
    private replica: ReplicaDatabase,
    private dispatcher: EngineDispatcher,
  ) {}

  /**
   * Connects, loads the newest snapshot, replays the records after it, migrates (once, locked).
   * `schema`: the store's tables live in that PostgreSQL schema (one team's store).
   */
  static async open(
    storeUrl: string,
    options: ReplicatedHostOptions,
    policy: Partial<ReplicationPolicy> = {},
    schema?: string,
  ): Promise<ReplicatedEngine> {
    const journal = await PgJournal.connect(storeUrl, options.logger, schema);
    const served = new ServedWork();
    try {
      const { replica, dispatcher, snapshotSeq } = await openReplica(journal, options, served);
      const engine = new ReplicatedEngine(
        served,
        journal,
        options,
        { ...DEFAULT_POLICY, ...policy },
        replica,
        dispatcher,
      );
      engine.snapshotSeq = snapshotSeq;
      served.serve(engine.servedOps());
      return engine;
    } catch (error) {
      const refused = () => Promise.reject(new Error('the store did not open'));
      served.serve({ write: refused, claimEmbedding: refused, once: refused });
      await journal.close().catch(() => undefined);
      throw error;
    }
  }

  call(method: string, params: unknown): Promise<unknown> {
    return this.serially(() => this.run(`local-${randomUUID()}`, method, params, true));
  }

  callWithId(requestId: string, method: string, params: unknown): Promise<unknown> {
    return this.serially(() => this.run(requestId, method, params, false));
  }

  onRoleChange(): () => void {
    return () => undefined;
  }

  close(): Promise<void> {
    this.closing ??= this.serially(async () => {
      try {
        // Read events buffered by recalls are written with the next write: this is the last one.
        await this.locked(() => Promise.resolve(this.dispatcher.store.flushReads()));
      } catch (error) {
        this.options.logger.warn(`could not write the last read events: ${String(error)}`);
      }
      await this.dispatcher.close();
      await this.journal.close();
    });
    return this.closing;
  }

  /**
   * The engine's own background work, refused once closing: work queued behind close() would
   * wait for the close that waits for it.
   */
  private servedOps(): ServedOps {
    const refuseWhenClosing = <T>(fn: () => Promise<T>): Promise<T> =>
      this.closing ? Promise.reject(new Error('the server is closing')) : fn();
    return {
      write: (fn) => refuseWhenClosing(() => this.serially(() => this.locked(() => Promise.resolve(fn())))),
      claimEmbedding: (model, docs) => refuseWhenClosing(() => this.claimEmbedding(model, docs)),
      once: (name, periodMs, job) => refuseWhenClosing(() => this.once(name, periodMs, job)),
    };
  }

  /**
   * Claims documents to embed (storeClaims.ts), then catches this replica up: a process that held
   * one of them before has committed its vector by the time its claim was released, so the
   * caller's second look at what is stale sees it.
   */
  private async claimEmbedding(
    model: string,
    docs: number[],
  ): Promise<{ docs: number[]; release(): Promise<void> }> {
    const held = await this.journal.held();
    try {
      const claimed = await claimDocuments(held, model, docs);
      if (claimed.length > 0)
        await this.serially(async () => this.catchUp(await this.journal.recordsAfter(this.replica.lastSeq)));
      return { docs: claimed, release: () => held.end() };
    } catch (error) {
      await held.end();
      throw error;
    }
  }

  /**
   * A timed job (the lifecycle run) once per period across every process of the store: under the
   * write lock, so two processes whose timers fire together decide one after the other, from
   * when the store last ran it; the job's writes are journaled as a served call's.
   */
  private once(name: string, periodMs: number, job: () => Promise<void>): Promise<number> {
    return this.serially(() =>
      this.locked(async (locked) => {
        const now = this.options.clock();
        const ranAt = await lastRun(locked.db, name);
        if (ranAt !== undefined && now - ranAt < periodMs) return ranAt + periodMs - now;
        await job();
        await markRun(locked.db, name, now);
        return periodMs;
      }),
    );
  }

  /** One call at a time in this process: the replica has one open transaction at most. */
  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(requestId: string, method: string, params: unknown, local: boolean): Promise<unknown> {
    try {
      return await this.runOnce(requestId, method, params, local);
    } catch (error) {
      if (!(EngramError.is(error) && error.details?.[BEHIND])) throw error;
      await this.reload();
      return this.runOnce(requestId, method, params, local);
    }
  }

  /**
   * A new replica from the newest snapshot, in place of one that fell behind the records kept
   * (it idled while other processes wrote and pruned). Read events it buffered are lost.
   */
  private async reload(): Promise<void> {
    const stale = this.dispatcher;
    const { replica, dispatcher, snapshotSeq } = await openReplica(this.journal, this.options, this.served);
    this.replica = replica;
    this.dispatcher = dispatcher;
    this.snapshotSeq = snapshotSeq;
    this.options.logger.warn(
      `reloaded this server's replica from the snapshot at transaction ${snapshotSeq}`,
    );
    await stale.close().catch(() => undefined);
  }

  private async runOnce(
    requestId: string,
    method: string,
    params: unknown,
    local: boolean,
  ): Promise<unknown> {
    const dispatch = (): Promise<unknown> =>
      this.dispatcher.dispatch(method, params, { requestId, client: 'team-server', local });
    if (isMethodName(method) && !METHODS[method].write) {
      let answered = await this.optimistic(dispatch, false);
      // Behind a write committed before the call: once more, asking where the journal is first.
      if (answered.behind) answered = await this.optimistic(dispatch, true);
      if (answered.done) return answered.result;
    }
    return this.locked(dispatch);
  }

  /**
   * A read: caught up without the lock; `done` false when it wrote and was overtaken, or when
   * its replica turned out to be behind a write committed before the call (then it runs again).
   *
   * The position comes from PostgreSQL's notifications when this process is listening
   * (journalPosition.ts), so a read asks nothing first. A notification may still be on its way
   * when a client answered by another process calls here, so the call's own answer is checked:
   * recall's statistics statement reports the journal's position in its snapshot, taken after
   * the call arrived (pgLexicalSearch.ts); a call that made no such statement asks `max(seq)`
   * after it. Not listening (or `ask`), the read asks first, as it always did, and needs no check.
   */
  private async optimistic(
    dispatch: () => Promise<unknown>,
    ask: boolean,
  ): Promise<{ done: boolean; behind?: boolean; result?: unknown }> {
    const heard = ask ? undefined : this.journal.position?.heard();
    const latest = heard ?? (await this.journal.latestSeq());
    if (latest > this.replica.lastSeq) this.catchUp(await this.journal.recordsAfter(this.replica.lastSeq));
    const base = this.replica.lastSeq;
    this.replica.hold();
    let keep = false;
    try {
      this.journal.observe();
      const result = await dispatch();
      if (heard !== undefined) {
        const seen = this.journal.observedSeq() ?? (await this.journal.latestSeq());
        if (seen > base) return { done: false, behind: true };
      }
      const written = this.replica.written;
      const appended =
        written.length === 0 ||
        (await this.journal.write(async (locked) => {
          if ((await locked.latestSeq()) !== base) return false;
          await syncHeldWrites(locked, this.replica, this.journal);
          await locked.append(written);
          return true;
        }));
      keep = appended;
      return appended ? { done: true, result } : { done: false };
    } finally {
      this.release(keep);
    }
  }

  /** Runs `fn` holding the write lock, caught up first; its writes are kept once PostgreSQL has them. */
  private async locked<T>(fn: (locked: LockedJournal) => Promise<T>): Promise<T> {
    let keep = false;
    let result: T | undefined;
    try {
      await this.journal.write(async (locked) => {
        this.catchUp(await locked.recordsAfter(this.replica.lastSeq));
        this.replica.hold();
        result = await fn(locked);
        // Recall's tables in the same transaction as the records: they never disagree.
        await syncHeldWrites(locked, this.replica, this.journal);
        await locked.append(this.replica.written);
      });
      keep = true;
    } finally {
      if (this.replica.holding) this.release(keep);
    }
    await this.snapshotIfDue();
    return result as T;
  }

  private catchUp(records: Parameters<ReplicaDatabase['catchUp']>[0]): void {
    const first = records[0];
    if (first && first.seq > this.replica.lastSeq + 1)
      throw new EngramError(
        'UNAVAILABLE',
        `this server's replica (transaction ${this.replica.lastSeq}) is older than the oldest record kept (${first.seq})`,
        { [BEHIND]: true },
      );
    // Others' writes may have merged or removed entities this process has cached.
    if (this.replica.catchUp(records) > 0) this.dispatcher.store.entitiesChanged();
  }

  private release(keep: boolean): void {
    this.replica.release(keep);
    // Rolled-back rows may be in the entity cache.
    if (!keep) this.dispatcher.store.entitiesChanged();
  }

  private async snapshotIfDue(): Promise<void> {
    const seq = this.replica.lastSeq;
    if (seq - this.snapshotSeq < this.policy.snapshotEvery) return;
    try {
      const bytes = this.replica.exportBytes();
      await this.journal.write((locked) => locked.saveSnapshot({ seq, bytes }, this.options.clock()));
      this.snapshotSeq = seq;
      this.replica.snapshotTaken(seq);
    } catch (error) {
      // The journal keeps every record: a missing snapshot only makes the next open replay more.
      this.options.logger.warn(`could not write a snapshot to PostgreSQL: ${String(error)}`);
    }
  }
}

/** The replica and its engine, opened under the write lock so migrations run once. */
async function openReplica(
  journal: PgJournal,
  options: ReplicatedHostOptions,
  served: ServedWork,
): Promise<{ replica: ReplicaDatabase; dispatcher: EngineDispatcher; snapshotSeq: number }> {
  const sql = await loadSqlJs(options.sqlWasmPath);
  let replica: ReplicaDatabase | undefined;
  let snapshotSeq = 0;
  let keep = false;
  try {
    const dispatcher = await journal.write(async (locked) => {
      let snapshot = await locked.newestSnapshot();
      if (!snapshot) {
        // The first process on an empty database stores the empty database as transaction 0, so
        // every replica starts from the same bytes (its identity included).
        const empty = emptyDatabase(sql, randomBytes(16).toString('hex'));
        snapshot = { seq: 0, bytes: empty.export() };
        empty.close();
        await locked.saveSnapshot(snapshot, options.clock());
      }
      const from = snapshot;
      snapshotSeq = from.seq;
      // The engine's own writes at open (migrations, expired request ids) are held with the rest.
      const opened = await EngineDispatcher.open({
        ...options,
        dbPath: journal.where,
        storeSearch: {
          lexical: (query, limit, statuses, viewer) =>
            journal.reading((db) =>
              searchLexicalInPostgres(db, query, limit, statuses, viewer, (seq) => journal.saw(seq)),
            ),
          // Every process's vectors, where its own index would hold only its own commits.
          dense: (model, vector, limit, filter) =>
            journal.reading((db) =>
              searchVectorsInPostgres(
                db,
                journal.vectorColumn,
                model,
                vector,
                limit,
                filter?.statuses,
                filter?.viewer,
              ),
            ),
          servedWrite: (fn) => served.write(fn),
          claimEmbedding: (model, docs) => served.claimEmbedding(model, docs),
        },
        // The lifecycle timer (lifecycleEveryMs) runs once per period per store, not per process.
        timedRuns: served,
        openDatabase: async (configure) => {
          replica = ReplicaDatabase.fromSnapshot(sql, from.bytes, journal.where, options.clock, configure);
          replica.catchUp(await locked.recordsAfter(from.seq));
          replica.hold();
          runMigrations(replica, MIGRATIONS);
          return replica;
        },
      });
      // A store whose recall tables were never built (new, or older than them or their layout) gets them whole.
      const built = await rowsBuiltAt(locked.db);
      if (built === undefined) {
        await clearRecallTables(locked.db);
        const read: ReplicaRead = (fn) => replica!.read(fn);
        await syncRecallRows(locked.db, read, read(allDocuments), journal.vectorColumn);
        await markRowsBuilt(locked.db, replica!.lastSeq);
      } else await syncHeldWrites(locked, replica!, journal);
      await locked.append(replica!.written);
      return opened;
    });
    keep = true;
    return { replica: replica!, dispatcher, snapshotSeq };
  } finally {
    if (replica?.holding) replica.release(keep);
    if (!keep) await replica?.close();
  }
}

/** Writes to recall's tables the documents the held call changed, in the journal's transaction. */
async function syncHeldWrites(
  locked: LockedJournal,
  replica: ReplicaDatabase,
  journal: PgJournal,
): Promise<void> {
  const read: ReplicaRead = (fn) => replica.read(fn);
  const docs = read((r) => changedDocuments(r, replica.changed));
  if (docs.length > 0) await syncRecallRows(locked.db, read, docs, journal.vectorColumn);
}
