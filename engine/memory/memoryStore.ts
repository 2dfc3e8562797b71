import { EngramError, invalidInput } from '../errors';
import { redactSecrets } from '../extract/secrets';
import type { Clock } from '../host';
import type { DurableDatabase, WriteOptions } from '../store/durableDatabase';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { contentHash } from './contentHash';
import { mergeEntities } from './entityGraph';
import type { Entity } from './entityGraph';
import { EntityLinker } from './entityLinker';
import { EntityWeights } from '../retrieval/entityWeights';
import { indexMemory } from '../retrieval/lexicalIndex';
import { MemoryGraphCache } from '../retrieval/memoryGraph';
import { EventLedger } from './eventLedger';
import type { LedgerEvent } from './eventLedger';
import { newId } from './ids';
import { DEFAULT_LIMITS } from './limits';
import type { MemoryLimits } from './limits';
import { assertStatus, currentMemory, resolveId } from './memoryQueries';
import { insertVersion } from './rows';
import type { MemoryVectors } from './memoryVectors';
import { NewMemoryRows } from './newMemoryRows';
import type { CodeWorkspace } from '../code/codeWorkspace';
import { importanceWithSurprise, NEAR_DUPLICATE_LAYERS, SURPRISE_NEIGHBOURS, surpriseOf } from './novelty';
import type { EmbeddedText } from './novelty';
import { expireSessions, touchSession, workingBytes } from './sessions';
import type { Actor, ChangeKind, Memory, MemoryVersion, RememberInput, RememberResult } from './types';
import {
  optionalText,
  parseTime,
  requiredText,
  validateImportance,
  validateRemember,
  validateTags,
  oneOf,
} from './validate';
import type { ValidRemember } from './validate';
import { KINDS, LAYERS } from './types';

export interface EditInput {
  content?: string;
  context?: string | null;
  tags?: string[];
  importance?: number;
  kind?: string;
  layer?: string;
  critical?: boolean;
  conflictKey?: string | null;
}

/** How often working-memory expiry is swept on writes. */
const EXPIRY_SWEEP_MS = 60_000;

/**
 * Every write to the memory model. Each public method is one durable transaction: it returns only
 * after the journal holds it, and a rejected input changes nothing.
 */
export class MemoryStore {
  readonly ledger = new EventLedger();
  /** Entity weights accumulated by recalls (the memory bias of PageRank). */
  readonly entityWeights = new EntityWeights();
  /** The entity-memory graph for the graph and PageRank channels, rebuilt when stale. */
  readonly graph = new MemoryGraphCache();
  /** The dense side (vectors, near-duplicates, surprise), once the host's embedding model loaded. */
  vectors: MemoryVectors | undefined;
  /** The workspace whose code this host scans (codebase layer); unset for a database without one. */
  code: CodeWorkspace | undefined;
  private vectorLoader: (() => Promise<MemoryVectors | undefined>) | undefined;
  private vectorsLoading: Promise<void> | undefined;
  /** Set when text was indexed without a vector: the next commit starts background embedding. */
  private unembedded = false;
  private readonly entities = new EntityLinker();
  private readonly newRows = new NewMemoryRows();
  private lastSweep = 0;

  constructor(
    readonly db: DurableDatabase,
    readonly clock: Clock,
    readonly limits: MemoryLimits = DEFAULT_LIMITS,
  ) {}

  read<T>(fn: (reader: SqlReader) => T): T {
    return this.db.read(fn);
  }

  /**
   * A write transaction that first flushes buffered read events and sweeps expired sessions.
   * `options.durable` false: for derived data only (see DurableDatabase.write).
   */
  write<T>(fn: (tx: SqlWriter, now: number) => T, options?: WriteOptions): T {
    const now = this.clock();
    // Staged vectors enter the index when the outermost transaction commits.
    const outermost = !this.db.inWrite;
    let result: T;
    try {
      result = this.db.write((tx) => {
        this.ledger.flush(tx);
        this.entityWeights.flush(tx);
        if (now - this.lastSweep >= EXPIRY_SWEEP_MS) {
          this.lastSweep = now;
          this.expireWorkingMemory(tx, now);
        }
        const result = fn(tx, now);
        this.entities.flush(tx, now);
        return result;
      }, options);
    } catch (error) {
      // Rolled-back rows may be in the entity cache and the staged vectors.
      this.entities.reset();
      this.newRows.discard();
      if (outermost) this.vectors?.rolledBack();
      throw error;
    }
    if (outermost) {
      this.vectors?.committed();
      if (this.unembedded && this.vectors) {
        this.unembedded = false;
        void this.vectors.sync();
      }
    }
    return result;
  }

  /**
   * How to load the embedding model: on first use (`ensureVectors`), so commands that never embed
   * (list, get, export) do not pay for it.
   */
  setVectorLoader(loader: () => Promise<MemoryVectors | undefined>): void {
    this.vectorLoader = loader;
  }

  /** Loads the embedding model once; settles when it is ready or failed (then `vectors` stays unset). */
  ensureVectors(): Promise<void> {
    const loader = this.vectorLoader;
    if (!loader) return Promise.resolve();
    this.vectorsLoading ??= loader().then((vectors) => {
      this.vectors = vectors;
    });
    return this.vectorsLoading;
  }

  /** Waits for a model load in progress, then stops background embedding and saves the index. */
  async closeVectors(): Promise<void> {
    this.vectorLoader = undefined;
    await this.vectorsLoading;
    await this.vectors?.close();
    this.vectors = undefined;
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
    this.db.write((tx) => {
      this.ledger.flush(tx);
      this.entityWeights.flush(tx);
    });
  }

  noteRead(event: LedgerEvent): void {
    this.ledger.noteRead(this.clock(), event);
  }

  /** `embedded` (from `embedForWrite`) enables near-duplicate updates, surprise and the vector. */
  remember(input: RememberInput, actor: Actor = {}, embedded?: EmbeddedText): RememberResult {
    const valid = validateRemember(input, this.limits);
    return this.write((tx, now) => {
      const result = this.rememberValid(tx, valid, actor, now, embedded);
      this.flushNewMemories(tx);
      return result;
    });
  }

  /** Many memories in one transaction; if any input is invalid, none is written. */
  rememberMany(
    inputs: RememberInput[],
    actor: Actor = {},
    embedded?: ReadonlyArray<EmbeddedText | undefined>,
  ): RememberResult[] {
    if (!Array.isArray(inputs)) throw invalidInput('rememberMany needs a list of memories');
    const valid = inputs.map((input, index) => {
      try {
        return validateRemember(input, this.limits);
      } catch (error) {
        if (EngramError.is(error)) throw new EngramError(error.code, `memory ${index + 1}: ${error.message}`);
        throw error;
      }
    });
    return this.write((tx, now) => {
      const results = valid.map((v, i) => this.rememberValid(tx, v, actor, now, embedded?.[i]));
      this.flushNewMemories(tx);
      return results;
    });
  }

  /** Writes the held rows and links of memories created by this remember call (see NewMemoryRows). */
  private flushNewMemories(tx: SqlWriter): void {
    this.newRows.flush(tx);
    this.entities.flushLinks(tx);
  }

  /**
   * Embeds texts to be remembered and finds their nearest stored memories: async work done before
   * the write transaction. Undefined entries when no embedding model is loaded.
   */
  async embedForWrite(contents: string[]): Promise<Array<EmbeddedText | undefined>> {
    const vectors = this.vectors;
    if (!vectors || contents.length === 0) return contents.map(() => undefined);
    const embedded = await vectors.embed(contents.map((c) => redactSecrets(c.trim()).text));
    return Promise.all(
      embedded.map(async (vector) => ({
        vector,
        nearest: await vectors.nearest(vector, SURPRISE_NEIGHBOURS),
      })),
    );
  }

  private rememberValid(
    tx: SqlWriter,
    input: ValidRemember,
    actor: Actor,
    now: number,
    embedded: EmbeddedText | undefined,
  ): RememberResult {
    const content = redactSecrets(input.content);
    const context = input.context === null ? null : redactSecrets(input.context);
    const redacted = [...new Set([...content.redactions, ...(context?.redactions ?? [])].map((r) => r.kind))];
    const agent = input.agent ?? actor.agent ?? null;
    const session = input.session ?? actor.session ?? (input.layer === 'working' ? 'default' : null);
    const hash = contentHash(content.text);

    const duplicate = input.dedupe ? this.findDuplicate(tx, hash, input.scope, agent) : undefined;
    // The paths below that read or change existing memories may meet one created earlier in this
    // batch: its held rows must be in the tables first. (Near duplicates come from vectors found
    // before the transaction began, so they were committed earlier; their merge flushes anyway.)
    if (duplicate || input.conflictKey !== null) this.flushNewMemories(tx);
    if (duplicate) {
      tx.run('UPDATE memory_state SET confirmations = confirmations + 1 WHERE id = ?', [duplicate]);
      this.ledger.append(tx, now, { type: 'duplicate', memoryId: duplicate, agent, session });
      return { outcome: 'unchanged', memory: currentMemory(tx, duplicate), superseded: [], redacted };
    }
    const surprise = embedded ? surpriseOf(embedded.nearest) : undefined;
    const near = embedded && input.dedupe ? this.nearDuplicate(tx, embedded, input, agent) : undefined;
    if (near) {
      this.flushNewMemories(tx);
      const memory = this.mergeRestatement(tx, near.memory, input, content.text, hash, embedded!, now, {
        agent,
        session,
      });
      return { outcome: 'updated', memory, superseded: [], redacted, similarity: near.score, surprise };
    }

    if (input.layer === 'working' && session !== null) {
      touchSession(tx, session, agent, now, this.limits.workingMemoryTtlMs);
      const size = Buffer.byteLength(content.text) + Buffer.byteLength(context?.text ?? '');
      const used = workingBytes(tx, session);
      if (used + size > this.limits.workingMemoryBytesPerSession) {
        throw new EngramError(
          'TOO_LARGE',
          `working memory of session "${session}" would hold ${used + size} bytes; the limit is ${this.limits.workingMemoryBytesPerSession}`,
        );
      }
    }

    const id = newId('m', now);
    const validFrom = input.validFrom ?? now;
    const superseded: string[] = [];
    if (input.conflictKey !== null) {
      for (const old of tx.all<{ id: string }>(
        "SELECT id FROM memories WHERE conflict_key = ? AND superseded_at IS NULL AND status = 'active' AND scope = ? AND (scope = 'shared' OR agent IS ?)",
        [input.conflictKey, input.scope, agent],
      )) {
        const previous = currentMemory(tx, old.id);
        this.revise(
          tx,
          previous,
          { status: 'superseded', supersededBy: id, validTo: Math.max(validFrom, previous.validFrom) },
          'superseded',
          now,
        );
        this.ledger.append(tx, now, {
          type: 'supersede',
          memoryId: old.id,
          agent,
          session,
          data: { by: id },
        });
        superseded.push(old.id);
      }
    }

    const version: MemoryVersion = {
      id,
      version: 1,
      layer: input.layer,
      kind: input.kind,
      content: content.text,
      context: context?.text ?? null,
      tags: input.tags,
      importance:
        surprise === undefined || input.importanceGiven
          ? input.importance
          : importanceWithSurprise(input.importance, surprise),
      trust: input.trust ?? actor.trust ?? (agent ? 'agent' : 'human'),
      critical: input.critical,
      scope: input.scope,
      agent,
      session,
      conflictKey: input.conflictKey,
      contentHash: hash,
      source: input.source,
      status: 'active',
      statusReason: null,
      supersededBy: null,
      validFrom,
      validTo: null,
      recordedAt: now,
      supersededAt: null,
      change: 'created',
    };
    insertVersion(tx, version);
    const linked = this.entities.link(tx, id, `${content.text}\n${input.tags.join(' ')}`, now, true);
    const doc = this.newRows.add(tx, {
      id,
      pinned: input.pinned,
      indexed: {
        content: version.content,
        context: version.context,
        tags: version.tags,
        entityNames: linked.names,
      },
      at: now,
      event: {
        type: 'remember',
        memoryId: id,
        agent,
        session,
        data: redacted.length ? { redacted } : undefined,
      },
    });
    if (embedded && this.vectors) this.vectors.stage(tx, id, hash, embedded.vector, doc);
    else this.unembedded = true;
    // The version becomes the result (spreading its 24 fields into a copy showed in profiles).
    const memory: Memory = Object.assign(version, {
      pinned: input.pinned,
      accessCount: 0,
      lastAccessedAt: null,
      confirmations: 1,
    });
    return {
      outcome: superseded.length ? 'superseded' : 'added',
      memory,
      superseded,
      redacted,
      ...(surprise === undefined ? {} : { surprise }),
    };
  }

  /** The closest active memory of the same layer and visibility above the threshold, if any. */
  private nearDuplicate(
    reader: SqlReader,
    embedded: EmbeddedText,
    input: ValidRemember,
    agent: string | null,
  ): { memory: Memory; score: number } | undefined {
    if (!NEAR_DUPLICATE_LAYERS.has(input.layer) || input.conflictKey !== null) return undefined;
    for (const hit of embedded.nearest) {
      if (hit.score < this.limits.nearDuplicateThreshold) break;
      const memory = currentMemory(reader, hit.memoryId);
      const visible = memory.scope === input.scope && (memory.scope === 'shared' || memory.agent === agent);
      if (memory.status === 'active' && memory.layer === input.layer && visible)
        return { memory, score: hit.score };
    }
    return undefined;
  }

  /** A restatement: the existing memory takes the newer wording (a new version) and the union of tags. */
  private mergeRestatement(
    tx: SqlWriter,
    previous: Memory,
    input: ValidRemember,
    content: string,
    hash: string,
    embedded: EmbeddedText,
    now: number,
    who: { agent: string | null; session: string | null },
  ): Memory {
    const tags = [...new Set([...previous.tags, ...input.tags])];
    const importance = input.importanceGiven
      ? Math.max(previous.importance, input.importance)
      : previous.importance;
    this.revise(tx, previous, { content, contentHash: hash, tags, importance }, 'merged', now);
    tx.run('UPDATE memory_state SET confirmations = confirmations + 1 WHERE id = ?', [previous.id]);
    const linked = this.entities.relink(tx, previous.id, `${content}\n${tags.join(' ')}`, now);
    indexMemory(tx, previous.id, { content, context: previous.context, tags, entityNames: linked.names });
    this.vectors?.stage(tx, previous.id, hash, embedded.vector);
    this.ledger.append(tx, now, {
      type: 'update',
      memoryId: previous.id,
      agent: who.agent,
      session: who.session,
      data: { previousVersion: previous.version },
    });
    return currentMemory(tx, previous.id);
  }

  private findDuplicate(
    reader: SqlReader,
    hash: string,
    scope: string,
    agent: string | null,
  ): string | undefined {
    return reader.value<string>(
      "SELECT id FROM memories WHERE content_hash = ? AND superseded_at IS NULL AND status = 'active' AND scope = ? AND (scope = 'shared' OR agent IS ?) LIMIT 1",
      [hash, scope, agent],
    );
  }

  edit(idOrPrefix: string, changes: EditInput, actor: Actor = {}): Memory {
    if (typeof changes !== 'object' || changes === null)
      throw invalidInput('edit needs the fields to change');
    const patch: Partial<MemoryVersion> = {};
    if (changes.content !== undefined) {
      patch.content = redactSecrets(
        requiredText('content', changes.content, this.limits.maxContentChars).trim(),
      ).text;
      patch.contentHash = contentHash(patch.content);
    }
    if (changes.context !== undefined) {
      const context = optionalText('context', changes.context, this.limits.maxContextChars);
      patch.context = context === null ? null : redactSecrets(context).text;
    }
    if (changes.tags !== undefined) patch.tags = validateTags(changes.tags);
    if (changes.importance !== undefined) patch.importance = validateImportance(changes.importance);
    if (changes.kind !== undefined) patch.kind = oneOf('kind', changes.kind, KINDS);
    if (changes.layer !== undefined) patch.layer = oneOf('layer', changes.layer, LAYERS);
    if (changes.critical !== undefined) patch.critical = changes.critical === true;
    if (changes.conflictKey !== undefined)
      patch.conflictKey = optionalText('conflictKey', changes.conflictKey, 200);
    if (Object.keys(patch).length === 0) throw invalidInput('edit needs at least one field to change');
    return this.write((tx, now) => {
      const memory = currentMemory(tx, resolveId(tx, idOrPrefix));
      assertStatus(memory, ['active'], 'edit');
      const changed = Object.entries(patch).some(
        ([key, value]) => JSON.stringify(memory[key as keyof Memory]) !== JSON.stringify(value),
      );
      if (!changed) return memory;
      this.revise(tx, memory, patch, 'edited', now);
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
    const why = requiredText('reason', reason, 2000);
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

  archive(idOrPrefix: string, actor: Actor = {}): Memory {
    return this.changeStatus(idOrPrefix, actor, ['active'], 'archive', () => ({
      patch: { status: 'archived', statusReason: null },
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
      this.revise(tx, memory, { status, statusReason: before?.status_reason ?? null }, 'restored', now);
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
    const note = redactSecrets(requiredText('annotation', text, 10_000).trim()).text;
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
      this.revise(tx, memory, patch, change, now);
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

  /** Closes the current version (transaction time) and records its successor with `patch` applied. */
  revise(
    tx: SqlWriter,
    current: MemoryVersion,
    patch: Partial<MemoryVersion>,
    change: ChangeKind,
    now: number,
  ): void {
    tx.run('UPDATE memories SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL', [now, current.id]);
    const next: MemoryVersion = {
      id: current.id,
      version: current.version,
      layer: current.layer,
      kind: current.kind,
      content: current.content,
      context: current.context,
      tags: current.tags,
      importance: current.importance,
      trust: current.trust,
      critical: current.critical,
      scope: current.scope,
      agent: current.agent,
      session: current.session,
      conflictKey: current.conflictKey,
      contentHash: current.contentHash,
      source: current.source,
      status: current.status,
      statusReason: current.statusReason,
      supersededBy: current.supersededBy,
      validFrom: current.validFrom,
      validTo: current.validTo,
      ...patch,
    } as MemoryVersion;
    insertVersion(tx, { ...next, version: current.version + 1, recordedAt: now, supersededAt: null, change });
  }

  private expireWorkingMemory(tx: SqlWriter, now: number): void {
    for (const memoryId of expireSessions(tx, now)) {
      this.revise(
        tx,
        currentMemory(tx, memoryId),
        { status: 'archived', statusReason: 'session expired' },
        'expired',
        now,
      );
      this.ledger.append(tx, now, { type: 'expire', memoryId });
    }
  }

  /** Sweeps expired sessions now (normally done at most once a minute on writes). */
  sweepExpired(): void {
    this.write((tx, now) => this.expireWorkingMemory(tx, now));
  }

  /** Refreshes a session's TTL (working memory is kept alive by use). */
  touch(session: string, agent: string | null): void {
    this.write((tx, now) => {
      touchSession(tx, session, agent, now, this.limits.workingMemoryTtlMs);
    });
  }
}
