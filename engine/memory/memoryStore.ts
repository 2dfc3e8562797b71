import { EngramError, invalidInput } from '../errors';
import { redactSecrets, withoutSecrets } from '../extract/secrets';
import type { Clock } from '../host';
import type { EngineDatabase, WriteOptions } from '../store/engineDatabase';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { mergeEntities } from './entityGraph';
import type { Entity } from './entityGraph';
import { EntityLinker } from './entityLinker';
import { indexMemory } from '../lexical/lexicalIndex';
import { EventLedger } from './eventLedger';
import type { LedgerEvent } from './eventLedger';
import { newId } from './ids';
import { DEFAULT_LIMITS } from './limits';
import type { MemoryLimits } from './limits';
import { assertStatus, currentMemory, resolveId } from './memoryQueries';
import { reviseVersion } from './rows';
import { NewMemoryRows } from './newMemoryRows';
import { RememberWrite } from './rememberWrite';
import { DerivedBatch } from './derivedBatch';
import { DeferredDerivations } from './deferredDerivations';
import type { EmbeddedText } from './novelty';
import { touchSession } from './sessions';
import { promoteExpiredWorkingMemory } from './sessionExpiry';
import { editPatch } from './editPatch';
import type { EditInput } from './editPatch';
import type {
  Actor,
  ChangeKind,
  Memory,
  MemoryVersion,
  RememberInput,
  RememberManyResult,
  RememberResult,
} from './types';
import { parseTime, requiredText, validateRemember } from './validate';
import type { ReadBuffer, VectorStaging } from './writeParticipants';

/** How often working-memory expiry is swept on writes. */
const EXPIRY_SWEEP_MS = 60_000;

export interface MemoryStoreOptions {
  /**
   * A single remember commits the memory, then its derived rows in a second transaction
   * (deferredDerivations.ts), so its acknowledgement waits for less. For the durable file store;
   * a PostgreSQL replica would pay a second round trip. @default false
   */
  deferDerivedRows?: boolean;
}

/**
 * Every write to the memory model. Each public method is one durable transaction: it returns only
 * after the journal holds it, and a rejected input changes nothing (the `remember` method's derived
 * rows follow in a second transaction: deferredDerivations.ts). What reads or serves the
 * memories (recall caches, the vectors, the code workspace) belongs to the engine context
 * (api/engineContext.ts), which attaches the parts that take part in writes (writeParticipants.ts).
 */
export class MemoryStore {
  readonly ledger = new EventLedger();
  /** Written at the start of every write transaction: the ledger's, and those attached. */
  private readonly readBuffers: ReadBuffer[] = [this.ledger];
  /** The dense side once its model loaded: stores vectors of remembered text at commit. */
  private vectors: VectorStaging | undefined;
  /** Set when text was indexed without a vector: the next commit starts background embedding. */
  private unembedded = false;
  private readonly entities = new EntityLinker();
  private readonly newRows = new NewMemoryRows();
  private readonly remembering: RememberWrite;
  private lastSweep = 0;
  private readonly derivations = new DeferredDerivations(() => this.settle());
  private readonly deferDerivedRows: boolean;

  constructor(
    readonly db: EngineDatabase,
    readonly clock: Clock,
    readonly limits: MemoryLimits = DEFAULT_LIMITS,
    options: MemoryStoreOptions = {},
  ) {
    this.deferDerivedRows = options.deferDerivedRows ?? false;
    // A snapshot asked for between a remember and its derived rows would hold the marker alone.
    db.beforeSnapshot?.(() => this.settle());
    this.remembering = new RememberWrite({
      limits,
      ledger: this.ledger,
      entities: this.entities,
      newRows: this.newRows,
      vectors: () => this.vectors,
      noteUnembedded: () => {
        this.unembedded = true;
      },
    });
  }

  read<T>(fn: (reader: SqlReader) => T): T {
    this.settle();
    return this.db.read(fn);
  }

  /**
   * Writes the derived rows of memories remembered before (deferredDerivations.ts), markers left
   * by a crash included. Every read and write calls it first; a no-op inside a write.
   */
  settle(): void {
    if (this.db.inWrite) return;
    this.derivations.settle(
      this.db,
      (tx, derivation) => {
        this.remembering.derive(tx, derivation);
        this.entities.flush(tx, derivation.at);
      },
      () => this.entities.reset(),
    );
  }

  /**
   * A write transaction that first flushes buffered read events and sweeps expired sessions.
   * `options.durable` false: for derived data only (see DurableDatabase.write).
   */
  write<T>(fn: (tx: SqlWriter, now: number) => T, options?: WriteOptions): T {
    // Staged vectors enter the index when the outermost transaction commits.
    const outermost = !this.db.inWrite;
    if (outermost) {
      this.derivations.writeStarting(options?.durable === 'group');
      this.settle();
    }
    const now = this.clock();
    let result: T;
    try {
      result = this.db.write((tx) => {
        for (const buffer of this.readBuffers) buffer.flush(tx);
        if (now - this.lastSweep >= EXPIRY_SWEEP_MS) {
          this.lastSweep = now;
          promoteExpiredWorkingMemory(tx, now, this.ledger);
        }
        const result = fn(tx, now);
        this.entities.flush(tx, now);
        return result;
      }, options);
    } catch (error) {
      // Rolled-back rows may be in the entity cache and the staged vectors.
      this.entities.reset();
      this.newRows.discard();
      if (outermost) {
        this.vectors?.rolledBack();
        this.derivations.rolledBack();
        this.derivations.writeEnded();
      }
      throw error;
    }
    if (outermost) {
      this.derivations.writeEnded();
      this.derivations.committed();
      this.vectors?.committed();
      if (this.unembedded && this.vectors) {
        this.unembedded = false;
        void this.vectors.sync();
      }
    }
    return result;
  }

  /** Buffered read events of another part (entity weights), written with each write from now on. */
  addReadBuffer(buffer: ReadBuffer): void {
    this.readBuffers.push(buffer);
  }

  /** The dense side that stores vectors of what is written from now on; undefined detaches it. */
  attachVectors(vectors: VectorStaging | undefined): void {
    this.vectors = vectors;
  }

  /** Records that memories were (re)indexed without vectors, e.g. by an import. */
  textChanged(): void {
    this.unembedded = true;
  }

  /** Merges entity `from` into `into` (see entityGraph.mergeEntities). */
  mergeEntities(from: string, into: string): Entity {
    const merged = this.write((tx) => mergeEntities(tx, from, into));
    this.entities.reset();
    return merged;
  }

  /** Call after bulk changes to entities made outside the linker (imports). */
  entitiesChanged(): void {
    this.entities.reset();
  }

  /** Writes buffered read events now (they are otherwise flushed with the next write). */
  flushReads(): void {
    this.settle();
    this.db.write((tx) => {
      for (const buffer of this.readBuffers) buffer.flush(tx);
    });
  }

  noteRead(event: LedgerEvent): void {
    this.ledger.noteRead(this.clock(), event);
  }

  /** `embedded` (from MemoryVectors.embedForWrite) enables near-duplicate updates, surprise and the vector. */
  /**
   * `deferDerived`: the caller's transaction ends with this remember (the `remember` method), so
   * its derived rows may follow in the next one (deferredDerivations.ts). Callers that go on
   * reading or changing the new memory's links in the same transaction leave it false.
   */
  remember(
    input: RememberInput,
    actor: Actor = {},
    embedded?: EmbeddedText,
    deferDerived = false,
  ): RememberResult {
    const valid = validateRemember(input, this.limits);
    const defer =
      deferDerived && this.deferDerivedRows && this.derivations.deferrable ? this.derivations : undefined;
    return this.write((tx, now) => {
      const result = this.remembering.remember(tx, valid, actor, now, embedded, defer);
      if (result instanceof EngramError) throw result;
      this.remembering.flush(tx);
      return result;
    });
  }

  /**
   * Many memories in one transaction, each checked on its own as `remember` checks it: the answer
   * holds one result per input, in order, a rejected input answered with its index and error and
   * nothing of it written. A batch with no valid input writes no memory and is no error.
   */
  rememberMany(
    inputs: RememberInput[],
    actor: Actor = {},
    embedded?: ReadonlyArray<EmbeddedText | undefined>,
  ): RememberManyResult[] {
    if (!Array.isArray(inputs)) throw invalidInput('rememberMany needs a list of memories');
    return this.writeDerived(actor, (batch) => {
      let results: RememberManyResult[] = [];
      batch.remember([
        { inputs, ...(embedded ? { embedded } : {}), after: (written) => (results = written) },
      ]);
      return results;
    });
  }

  /**
   * A write of many memories in groups (`rememberMany`'s one group, the scanner's files): `fn`
   * writes them through a DerivedBatch, which stores the rows `remember` would for each with fewer
   * statements.
   */
  writeDerived<T>(actor: Actor, fn: (batch: DerivedBatch, tx: SqlWriter) => T, options?: WriteOptions): T {
    return this.write((tx, now) => {
      const batch = new DerivedBatch(tx, now, actor, this.limits, this.remembering);
      const result = fn(batch, tx);
      batch.flush();
      return result;
    }, options);
  }

  edit(idOrPrefix: string, changes: EditInput, actor: Actor = {}): Memory {
    const patch = editPatch(changes, this.limits);
    return this.write((tx, now) => {
      const memory = currentMemory(tx, resolveId(tx, idOrPrefix));
      assertStatus(memory, ['active'], 'edit');
      const changed = Object.entries(patch).some(
        ([key, value]) => JSON.stringify(memory[key as keyof Memory]) !== JSON.stringify(value),
      );
      if (!changed) return memory;
      reviseVersion(tx, memory, patch, 'edited', now);
      if (patch.content !== undefined || patch.tags !== undefined || patch.context !== undefined) {
        const content = patch.content ?? memory.content;
        const tags = patch.tags ?? memory.tags;
        const linked = this.entities.relink(tx, memory.id, `${content}\n${tags.join(' ')}`, now);
        const context = patch.context === undefined ? memory.context : patch.context;
        indexMemory(tx, memory.id, { content, context, tags, entityNames: linked.names });
        if (patch.content !== undefined) this.unembedded = true;
      }
      this.ledger.append(tx, now, {
        type: 'edit',
        memoryId: memory.id,
        agent: actor.agent ?? null,
        session: actor.session ?? null,
        data: { fields: Object.keys(patch) },
      });
      return currentMemory(tx, memory.id);
    });
  }

  /** Marks a memory as no longer true from `validTo` (default now), with a reason. */
  invalidate(idOrPrefix: string, reason: string, actor: Actor = {}, validTo?: number | string): Memory {
    const why = withoutSecrets(requiredText('reason', reason, 2000));
    const end = validTo === undefined ? undefined : parseTime('validTo', validTo);
    return this.changeStatus(idOrPrefix, actor, ['active'], 'invalidate', (memory, now) => ({
      patch: { status: 'invalidated', statusReason: why, validTo: end ?? now },
      change: 'invalidated',
    }));
  }

  /** Soft delete: hidden everywhere, recoverable with restore. */
  forget(idOrPrefix: string, actor: Actor = {}): Memory {
    return this.changeStatus(
      idOrPrefix,
      actor,
      ['active', 'invalidated', 'superseded', 'archived'],
      'forget',
      () => ({
        patch: { status: 'forgotten', statusReason: null },
        change: 'forgotten',
      }),
    );
  }

  /** Out of recall by default, recoverable with restore; `reason` says why (the lifecycle's rule). */
  archive(idOrPrefix: string, actor: Actor = {}, reason?: string): Memory {
    return this.changeStatus(idOrPrefix, actor, ['active'], 'archive', () => ({
      patch: { status: 'archived', statusReason: reason ?? null },
      change: 'archived',
    }));
  }

  /** Undoes forget or archive: the memory returns to the status it had before. */
  restore(idOrPrefix: string, actor: Actor = {}): Memory {
    return this.write((tx, now) => {
      const memory = currentMemory(tx, resolveId(tx, idOrPrefix));
      assertStatus(memory, ['forgotten', 'archived'], 'restore');
      const before = tx.get<{ status: string; status_reason: string | null }>(
        "SELECT status, status_reason FROM memories WHERE id = ? AND status NOT IN ('forgotten', 'archived') ORDER BY version DESC LIMIT 1",
        [memory.id],
      );
      const status = (before?.status ?? 'active') as Memory['status'];
      reviseVersion(tx, memory, { status, statusReason: before?.status_reason ?? null }, 'restored', now);
      this.ledger.append(tx, now, {
        type: 'restore',
        memoryId: memory.id,
        agent: actor.agent ?? null,
        session: actor.session ?? null,
      });
      return currentMemory(tx, memory.id);
    });
  }

  pin(idOrPrefix: string, pinned: boolean, actor: Actor = {}): Memory {
    return this.write((tx, now) => {
      const id = resolveId(tx, idOrPrefix);
      tx.run('UPDATE memory_state SET pinned = ? WHERE id = ?', [pinned ? 1 : 0, id]);
      this.ledger.append(tx, now, {
        type: pinned ? 'pin' : 'unpin',
        memoryId: id,
        agent: actor.agent ?? null,
        session: actor.session ?? null,
      });
      return currentMemory(tx, id);
    });
  }

  annotate(idOrPrefix: string, text: string, actor: Actor = {}) {
    const note = redactSecrets(requiredText('annotation', text, this.limits.maxAnnotationChars).trim()).text;
    return this.write((tx, now) => {
      const id = resolveId(tx, idOrPrefix);
      const annotation = {
        id: newId('a', now),
        memoryId: id,
        text: note,
        agent: actor.agent ?? null,
        createdAt: now,
      };
      tx.run('INSERT INTO annotations (id, memory_id, text, agent, created_at) VALUES (?, ?, ?, ?, ?)', [
        annotation.id,
        id,
        note,
        annotation.agent,
        now,
      ]);
      this.ledger.append(tx, now, {
        type: 'annotate',
        memoryId: id,
        agent: annotation.agent,
        session: actor.session ?? null,
      });
      return annotation;
    });
  }

  private changeStatus(
    idOrPrefix: string,
    actor: Actor,
    allowed: Memory['status'][],
    action: 'invalidate' | 'forget' | 'archive',
    decide: (memory: Memory, now: number) => { patch: Partial<MemoryVersion>; change: ChangeKind },
  ): Memory {
    return this.write((tx, now) => {
      const memory = currentMemory(tx, resolveId(tx, idOrPrefix));
      assertStatus(memory, allowed, action);
      const { patch, change } = decide(memory, now);
      reviseVersion(tx, memory, patch, change, now);
      this.ledger.append(tx, now, {
        type: action,
        memoryId: memory.id,
        agent: actor.agent ?? null,
        session: actor.session ?? null,
        data: patch.statusReason ? { reason: patch.statusReason } : undefined,
      });
      return currentMemory(tx, memory.id);
    });
  }

  /** Sweeps expired sessions now (normally done at most once a minute on writes). */
  sweepExpired(): void {
    this.write((tx, now) => promoteExpiredWorkingMemory(tx, now, this.ledger));
  }

  /** Refreshes a session's TTL (working memory is kept alive by use). */
  touch(session: string, agent: string | null): void {
    this.write((tx, now) => {
      touchSession(tx, session, agent, now, this.limits.workingMemoryTtlMs);
    });
  }
}
