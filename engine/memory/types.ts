/** The memory model shared by every interface (CLI, MCP, VS Code, webviews). */
import type { EngramErrorCode } from '../errors';

export const LAYERS = ['working', 'episodic', 'semantic', 'procedural', 'codebase'] as const;
export type Layer = (typeof LAYERS)[number];

export const KINDS = [
  'fact',
  'decision',
  'preference',
  'error-pattern',
  'procedure',
  'negative',
  'interaction',
  'summary',
  'note',
  'code-file',
  'code-symbol',
  'code-module',
  'config',
] as const;
export type Kind = (typeof KINDS)[number];

export const STATUSES = ['active', 'invalidated', 'superseded', 'forgotten', 'archived'] as const;
export type Status = (typeof STATUSES)[number];

/** Who wrote a memory, most trusted first; trust slows decay and breaks ties. */
/** `model`: a consolidated memory whose summary a language model wrote (engine/lifecycle/modelSummaries.ts). */
export const TRUST_LEVELS = ['human', 'agent', 'ingest', 'consolidation', 'model'] as const;
export type Trust = (typeof TRUST_LEVELS)[number];

export const SCOPES = ['shared', 'private'] as const;
export type Scope = (typeof SCOPES)[number];

/** Why a version of a memory exists. */
export type ChangeKind =
  | 'created'
  | 'edited'
  | 'invalidated'
  | 'superseded'
  | 'forgotten'
  | 'restored'
  | 'archived'
  | 'expired'
  | 'imported'
  | 'merged'
  | 'promoted';

/** Where a memory came from: a span of a file, a commit, a conversation turn, a URL. */
export interface SourceRef {
  file?: string;
  start?: number;
  end?: number;
  /** sha256 of the quoted text, to notice when the source changed. */
  quoteHash?: string;
  commit?: string;
  conversation?: string;
  url?: string;
}

/** One version of a memory as stored. Versions are never changed, only closed and succeeded. */
export interface MemoryVersion {
  id: string;
  version: number;
  layer: Layer;
  kind: Kind;
  content: string;
  context: string | null;
  tags: string[];
  importance: number;
  trust: Trust;
  critical: boolean;
  scope: Scope;
  agent: string | null;
  session: string | null;
  conflictKey: string | null;
  contentHash: string;
  source: SourceRef | null;
  status: Status;
  statusReason: string | null;
  supersededBy: string | null;
  /** Valid time: when the memory was true in the world (ms since epoch). */
  validFrom: number;
  validTo: number | null;
  /** Transaction time: when Engram started and stopped believing this version. */
  recordedAt: number;
  supersededAt: number | null;
  change: ChangeKind;
}

/** The current version of a memory with its usage counters. */
export interface Memory extends MemoryVersion {
  pinned: boolean;
  accessCount: number;
  lastAccessedAt: number | null;
  confirmations: number;
}

export interface Annotation {
  id: string;
  memoryId: string;
  text: string;
  agent: string | null;
  createdAt: number;
}

/** Who is acting: recorded on every write and in the event ledger. */
export interface Actor {
  agent?: string;
  session?: string;
  /** Defaults from the agent: a named agent writes with 'agent' trust, the CLI user with 'human'. */
  trust?: Trust;
}

export interface RememberInput {
  content: string;
  context?: string | null;
  layer?: Layer;
  kind?: Kind;
  tags?: string[];
  /** 0..1. @default 0.5 */
  importance?: number;
  critical?: boolean;
  pinned?: boolean;
  scope?: Scope;
  /** A new memory with the same conflict key supersedes the active one instead of contradicting it. */
  conflictKey?: string | null;
  source?: SourceRef;
  /** When the memory became true, if not now (ms since epoch or ISO text). */
  validFrom?: number | string;
  agent?: string | null;
  session?: string | null;
  trust?: Trust;
  /**
   * Whether a restatement of an existing memory updates it instead of adding another one: the same
   * text is `unchanged`; a semantic or procedural memory whose embedding is within the
   * near-duplicate threshold of an existing one of the same layer is `updated` with the new text.
   * Off for corpora whose items are distinct records (conversation turns, documents). @default true
   */
  dedupe?: boolean;
}

/**
 * `added` a new memory; `updated` a near-duplicate memory took the new text; `unchanged` the
 * same text was already stored (its confirmation count grew); `superseded` added, replacing the
 * memories with its conflict key.
 */
export type RememberOutcome = 'added' | 'updated' | 'unchanged' | 'superseded';

/**
 * A restatement merged into an existing memory: it names the memory and the text it replaced, so
 * a merge is never silent. Merges happen only when the embedding is within the near-duplicate
 * threshold and no number, name, path, version or identifier differs (distinguishingTokens.ts).
 */
export interface MergeNote {
  /** Id of the memory that took the new wording (the result's memory). */
  into: string;
  /** Its wording before the merge (still in its history). */
  previousContent: string;
  similarity: number;
  reason: string;
}

export interface RememberResult {
  outcome: RememberOutcome;
  memory: Memory;
  /** Ids of the memories this one superseded (same conflict key). */
  superseded: string[];
  /** Kinds of secrets that were redacted from the content before storing it. */
  redacted: string[];
  /** With an embedding model: cosine similarity to the memory that was updated (`updated`). */
  similarity?: number;
  /** `updated`: the memory the text was merged into, the wording it replaced, and why. */
  merged?: MergeNote;
  /**
   * With an embedding model: 1 - mean cosine similarity to the nearest memories (0 = says what
   * is already known, 1 = unlike anything stored); it moved importance when none was given.
   */
  surprise?: number;
}

/**
 * A memory of a batch (`rememberMany`) that was not written: the one-line error a `remember` of it
 * alone would have thrown, and its position in the batch (from 0). Nothing of it was written.
 */
export interface RememberRejection {
  outcome: 'rejected';
  index: number;
  error: { code: EngramErrorCode; message: string };
}

/**
 * `rememberMany`'s answer for one memory, at that memory's position: written (a RememberResult)
 * or rejected. `outcome` tells them apart.
 */
export type RememberManyResult = RememberResult | RememberRejection;
