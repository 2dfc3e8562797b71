import { EngramError } from '../errors';
import { redactSecrets } from '../extract/secrets';
import { noteScannedClean } from '../extract/storedText';
import type { RedactionResult } from '../extract/secrets';
import { indexMemory } from '../lexical/lexicalIndex';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { contentHash } from './contentHash';
import { distinguishingDifference } from './distinguishingTokens';
import type { EntityLinker } from './entityLinker';
import type { EventLedger } from './eventLedger';
import { newId } from './ids';
import type { MemoryLimits } from './limits';
import { currentMemory } from './memoryQueries';
import type { NewMemoryRows } from './newMemoryRows';
import { importanceWithSurprise, NEAR_DUPLICATE_LAYERS, surpriseOf } from './novelty';
import type { EmbeddedText } from './novelty';
import { insertVersion, reviseVersion } from './rows';
import { touchSession, workingBytes } from './sessions';
import type { Actor, Memory, MemoryVersion, RememberResult } from './types';
import type { ValidRemember } from './validate';
import type { VectorStaging } from './writeParticipants';
import type { DeferredDerivations, Derivation } from './deferredDerivations';
import { LEXICAL_INSERT, lexicalRow } from '../lexical/lexicalIndex';
import { noteLexicalChange } from '../lexical/lexicalChanges';

export interface RememberDependencies {
  limits: MemoryLimits;
  ledger: EventLedger;
  entities: EntityLinker;
  newRows: NewMemoryRows;
  /** The dense side, once loaded (it can arrive after the store opened). */
  vectors(): VectorStaging | undefined;
  /** Text was stored without a vector: the owner embeds it in the background after the commit. */
  noteUnembedded(): void;
}

/**
 * The write path of `remember` inside its transaction: exact duplicates confirm the stored memory,
 * near duplicates (by embedding) merge into it as a new version, a conflict key supersedes what it
 * names, and anything else becomes a new memory whose side rows are held for one flush per call.
 */
export class RememberWrite {
  constructor(private readonly deps: RememberDependencies) {}

  /** Writes the held rows and links of memories created by this remember call (see NewMemoryRows). */
  flush(tx: SqlWriter): void {
    this.deps.newRows.flush(tx);
    this.deps.entities.flushLinks(tx);
  }

  /**
   * The result, or the error that refused the input (its session's working memory is full):
   * returned, not thrown, because nothing of the input was written, so a batch goes on without it.
   */
  remember(
    tx: SqlWriter,
    input: ValidRemember,
    actor: Actor,
    now: number,
    embedded: EmbeddedText | undefined,
    defer?: DeferredDerivations,
  ): RememberResult | EngramError {
    const prepared = prepareRemember(input, actor);
    const { content, context, redacted, agent, session, hash } = prepared;

    const duplicate = input.dedupe ? this.findDuplicate(tx, hash, input.scope, agent) : undefined;
    // The paths below that read or change existing memories may meet one created earlier in this
    // batch: its held rows must be in the tables first. (Near duplicates come from vectors found
    // before the transaction began, so they were committed earlier; their merge flushes anyway.)
    if (duplicate || input.conflictKey !== null) this.flush(tx);
    if (duplicate) {
      tx.run('UPDATE memory_state SET confirmations = confirmations + 1 WHERE id = ?', [duplicate]);
      this.deps.ledger.append(tx, now, { type: 'duplicate', memoryId: duplicate, agent, session });
      return { outcome: 'unchanged', memory: currentMemory(tx, duplicate), superseded: [], redacted };
    }
    const surprise = embedded ? surpriseOf(embedded.nearest) : undefined;
    const near =
      embedded && input.dedupe ? this.nearDuplicate(tx, embedded, input, content.text, agent) : undefined;
    if (near) {
      this.flush(tx);
      const memory = this.mergeRestatement(tx, near.memory, input, content.text, hash, embedded!, now, {
        agent,
        session,
      });
      const merged = {
        into: near.memory.id,
        previousContent: near.memory.content,
        similarity: near.score,
        reason: `restatement: similarity ${near.score.toFixed(2)} >= ${this.deps.limits.nearDuplicateThreshold} and no number, name, path or identifier differs`,
      };
      return {
        outcome: 'updated',
        memory,
        superseded: [],
        redacted,
        similarity: near.score,
        surprise,
        merged,
      };
    }

    if (input.layer === 'working' && session !== null) {
      // Checked before anything of this input is written, so a batch can skip it and go on.
      const size = Buffer.byteLength(content.text) + Buffer.byteLength(context?.text ?? '');
      const used = workingBytes(tx, session);
      if (used + size > this.deps.limits.workingMemoryBytesPerSession) {
        return new EngramError(
          'TOO_LARGE',
          `working memory of session "${session}" would hold ${used + size} bytes; the limit is ${this.deps.limits.workingMemoryBytesPerSession}`,
        );
      }
      touchSession(tx, session, agent, now, this.deps.limits.workingMemoryTtlMs);
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
        reviseVersion(
          tx,
          previous,
          { status: 'superseded', supersededBy: id, validTo: Math.max(validFrom, previous.validFrom) },
          'superseded',
          now,
        );
        this.deps.ledger.append(tx, now, {
          type: 'supersede',
          memoryId: old.id,
          agent,
          session,
          data: { by: id },
        });
        superseded.push(old.id);
      }
    }

    const created = { id, validFrom, superseded };
    return this.create(tx, prepared, input, actor, now, embedded, created, insertVersion, defer);
  }

  /**
   * The rows a memory created with `defer` still lacks (deferredDerivations.ts): its entity links
   * and its lexical row, made from its stored first version exactly as `create` makes them.
   */
  derive(tx: SqlWriter, derivation: Derivation): void {
    const row = tx.get<{ content: string; context: string | null; tags: string }>(
      'SELECT content, context, tags FROM memories WHERE id = ? AND version = 1',
      [derivation.id],
    );
    // Its transaction rolled back after all (a failed savepoint around it): nothing to derive.
    if (!row) return;
    const tags = JSON.parse(row.tags) as string[];
    const linked = this.deps.entities.link(
      tx,
      derivation.id,
      `${row.content}\n${tags.join(' ')}`,
      derivation.at,
      true,
    );
    this.deps.entities.flushLinks(tx);
    const indexed = { content: row.content, context: row.context, tags, entityNames: linked.names };
    tx.run(`${LEXICAL_INSERT} VALUES (?, ?, ?, ?, ?)`, lexicalRow(derivation.doc, indexed));
    noteLexicalChange(derivation.doc);
  }

  /**
   * Writes a new memory: its version (through `insert`: now, or held by a batch), its entity links
   * and side rows (held until `flush`), its vector when embedded. `created.superseded`: the ids
   * it replaced (already closed by the caller, naming `created.id` as their successor).
   */
  create(
    tx: SqlWriter,
    prepared: PreparedRemember,
    input: ValidRemember,
    actor: Actor,
    now: number,
    embedded: EmbeddedText | undefined,
    created: { id: string; validFrom: number; superseded: string[] },
    insert: (tx: SqlWriter, version: MemoryVersion) => void,
    defer?: DeferredDerivations,
  ): RememberResult {
    const { content, context, redacted, agent, session, hash } = prepared;
    const { id, validFrom, superseded } = created;
    const surprise = embedded ? surpriseOf(embedded.nearest) : undefined;
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
    insert(tx, version);
    // Deferred: the links and the lexical row come in the next transaction (derive).
    const linked = defer
      ? undefined
      : this.deps.entities.link(tx, id, `${content.text}\n${input.tags.join(' ')}`, now, true);
    const doc = this.deps.newRows.add(tx, {
      id,
      pinned: input.pinned,
      indexed: linked && {
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
    defer?.mark(tx, { id, doc, at: now });
    const vectors = this.deps.vectors();
    if (embedded && vectors) vectors.stage(tx, id, hash, embedded.vector, doc);
    else this.deps.noteUnembedded();
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

  /**
   * The closest active memory of the same layer and visibility above the threshold that the new
   * text restates, if any. A sentence encoder scores "ticket 101" and "ticket 102" as one
   * sentence: a neighbour whose numbers, names, paths or identifiers differ is another fact, kept
   * apart (only a conflict key or an edit replaces a fact).
   */
  private nearDuplicate(
    reader: SqlReader,
    embedded: EmbeddedText,
    input: ValidRemember,
    content: string,
    agent: string | null,
  ): { memory: Memory; score: number } | undefined {
    if (!NEAR_DUPLICATE_LAYERS.has(input.layer) || input.conflictKey !== null) return undefined;
    for (const hit of embedded.nearest) {
      if (hit.score < this.deps.limits.nearDuplicateThreshold) break;
      const memory = currentMemory(reader, hit.memoryId);
      const visible = memory.scope === input.scope && (memory.scope === 'shared' || memory.agent === agent);
      if (memory.status !== 'active' || memory.layer !== input.layer || !visible) continue;
      // A peer card (engine/lifecycle/storedPeerCards.ts) is rewritten by the lifecycle only.
      if (memory.conflictKey?.startsWith('peer-card:')) continue;
      if (distinguishingDifference(memory.content, content) === undefined)
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
    reviseVersion(tx, previous, { content, contentHash: hash, tags, importance }, 'merged', now);
    tx.run('UPDATE memory_state SET confirmations = confirmations + 1 WHERE id = ?', [previous.id]);
    const linked = this.deps.entities.relink(tx, previous.id, `${content}\n${tags.join(' ')}`, now);
    indexMemory(tx, previous.id, { content, context: previous.context, tags, entityNames: linked.names });
    this.deps.vectors()?.stage(tx, previous.id, hash, embedded.vector);
    this.deps.ledger.append(tx, now, {
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
}

/** What `remember` computes from an input before it looks at the store. */
export interface PreparedRemember {
  content: RedactionResult;
  context: RedactionResult | null;
  /** Kinds of secrets redacted from the content or the context. */
  redacted: string[];
  agent: string | null;
  session: string | null;
  hash: string;
}

export function prepareRemember(input: ValidRemember, actor: Actor): PreparedRemember {
  const content = redactSecrets(input.content);
  const context = input.context === null ? null : redactSecrets(input.context);
  if (content.redactions.length === 0) noteScannedClean(content.text);
  if (context && context.redactions.length === 0) noteScannedClean(context.text);
  return {
    content,
    context,
    redacted: [...new Set([...content.redactions, ...(context?.redactions ?? [])].map((r) => r.kind))],
    agent: input.agent ?? actor.agent ?? null,
    session: input.session ?? actor.session ?? (input.layer === 'working' ? 'default' : null),
    hash: contentHash(content.text),
  };
}
