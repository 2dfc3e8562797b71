import { realpathSync } from 'node:fs';
import { EngramError } from '../errors';
import { currentMemory } from '../memory/memoryQueries';
import { reviseVersion } from '../memory/rows';
import type { MemoryStore } from '../memory/memoryStore';
import type { Actor } from '../memory/types';
import { extractClaims } from './claimExtractor';
import {
  checkedMemories,
  claimsForCheck,
  markValidToApplied,
  newClaimsForCheck,
  pendingExtraction,
  saveMemoryStatus,
  saveVerdict,
  storeClaims,
} from './claimStore';
import type { ClaimForCheck, PendingMemory } from './claimStore';
import type { ClaimCheck, DriftStatus, Verdict } from './claimTypes';
import { DRIFT_STATUSES, VERDICTS } from './claimTypes';
import { verifyAll } from './claimVerifier';
import { withDefaultsOfGoneOptions } from './goneOptionDefaults';
import type { DriftReport, MemoryDrift, Repair } from './driftReport';
import { oneFindingPerFact } from './repeatedFindings';
import { DRIFTED, driftScore, driftStatusOf, falseSince, saysMoreThan } from './driftStatus';
import { createVerificationContext, historyNote } from './verificationContext';
import type { VerificationContext } from './verificationContext';
import { memoriesNamingPaths } from './changedPaths';
import { readManifestFacts } from './manifestFacts';
import type { ManifestFacts } from './manifestFacts';
import { lazySymbolIndex } from './symbolIndex';
import { sourceContexts } from './sourceHeadings';

export interface DriftCheckOptions {
  /** The workspace to check against (EngineContext.code's root); without one a check is UNAVAILABLE. */
  root?: string;
  /** Only memories whose claims name these workspace paths (after a scan or a file change). */
  paths?: readonly string[];
  /** Report every checked memory, not only the drifted ones. */
  all?: boolean;
  actor?: Actor;
}

/** The workspace a drift check runs against, or a clear UNAVAILABLE error. */
export function requireDriftRoot(root: string | undefined): string {
  if (!root)
    throw new EngramError(
      'UNAVAILABLE',
      'drift needs a workspace to check against: open the engine with a workspace root (--workspace DIR)',
    );
  return root;
}

/**
 * Checks the claims of the current memories against the workspace and its history: extracts the
 * claims of memories that have none or changed, verifies, stores the verdicts, dates memories
 * that became false (valid_to = the commit's time) and records each change of drift status in the
 * event ledger. Repairs nothing (see driftRepair).
 */
export async function checkDrift(store: MemoryStore, options: DriftCheckOptions = {}): Promise<DriftReport> {
  const started = Date.now();
  const root = requireDriftRoot(options.root);
  return checkSelection(store, root, await selectClaims(store, root, options.paths), options, started);
}

/** Up to this many claims, a check reads the code index name by name (lazySymbolIndex). */
const MAX_LAZY_CLAIMS = 2000;

/** The claims a check verifies, and what was read to choose them. */
export interface ClaimSelection {
  manifests: ManifestFacts;
  /** Memories written or edited since they were last checked, with their claims just extracted. */
  extracted: Extracted[];
  /** Every claim to verify: stored ones and those of `extracted`. */
  claims: ClaimForCheck[];
  /** Chosen by changed paths: the code index is then read name by name, not whole. */
  incremental: boolean;
}

/**
 * The claims of every current memory; with `paths`, those of the memories whose stored claims name
 * them (looked up through the claims' indexes, see memoriesNamingPaths) and of every memory not
 * checked since it was written (its claims are not stored yet).
 */
export async function selectClaims(
  store: MemoryStore,
  root: string,
  paths?: readonly string[],
): Promise<ClaimSelection> {
  const manifests = store.read((reader) => readManifestFacts(reader, root, realpathSync(root)));
  const extracted = await extractPending(store, root, manifests);
  const pendingIds = new Set(extracted.map((e) => e.memory.id));
  const fresh = extracted.flatMap((e) => e.claims);
  // Stored claims of memories extracted again are replaced by the new ones, checked unstored.
  const stored = store.read((reader) =>
    paths === undefined
      ? claimsForCheck(reader)
      : claimsForCheck(reader, [...memoriesNamingPaths(reader, root, paths, manifests.files)]),
  );
  const claims = [...stored.filter((c) => !pendingIds.has(c.memoryId)), ...fresh];
  return { manifests, extracted, claims, incremental: paths !== undefined };
}

/** Verifies and records the selected claims (see checkDrift). */
export async function checkSelection(
  store: MemoryStore,
  root: string,
  selection: ClaimSelection,
  options: DriftCheckOptions,
  started = Date.now(),
): Promise<DriftReport> {
  const { manifests, extracted, claims, incremental } = selection;
  // A few claims ask the code index about a few names; many (a checkout changed every file) ask
  // about most of it, and one read of the whole index beats a query per name.
  const lazy = incremental && claims.length <= MAX_LAZY_CLAIMS;
  const ctx = await store.read((reader) =>
    createVerificationContext(reader, root, {
      manifests,
      readLater: (fn) => store.read(fn),
      ...(lazy ? { symbols: lazySymbolIndex((fn) => store.read(fn)) } : {}),
    }),
  );
  const checks = withDefaultsOfGoneOptions(claims, await verifyAll(ctx, claims));
  await ctx.history.settled();
  const byMemory = groupByMemory(claims, checks);
  const memories = recordResults(store, byMemory, extracted, options.actor ?? {}, ctx);
  const statuses = memories.map((m) => m.status);
  return {
    root,
    history: {
      git: ctx.git !== undefined,
      head: ctx.git?.head ?? null,
      shallow: ctx.git?.shallow ?? false,
      note: historyNote(ctx),
    },
    checked: { memories: byMemory.size, claims: claims.length, extracted: extracted.length, incremental },
    verdicts: countOf(
      VERDICTS,
      checks.map((c) => c.verdict),
    ),
    statuses: countOf(DRIFT_STATUSES, statuses),
    score: driftScore(statuses),
    memories: options.all ? memories : memories.filter((m) => DRIFTED.has(m.status)),
    millis: Date.now() - started,
  };
}

interface Extracted {
  memory: PendingMemory;
  claims: ClaimForCheck[];
}

/**
 * Claims of memories written (or edited) since the last check, and of those from before drift
 * existed. They are stored with their verdicts once checked (recordResults), in one write.
 */
async function extractPending(
  store: MemoryStore,
  root: string,
  manifests: ManifestFacts,
): Promise<Extracted[]> {
  const pending = store.read(pendingExtraction);
  const contexts = await sourceContexts(root, pending);
  const options = { projectPrograms: manifests.programs, projectPackages: manifests.ownNames };
  return pending.map((memory) => ({
    memory,
    claims: newClaimsForCheck(
      memory,
      extractClaims(memory.content, { ...options, ...contexts.get(memory.id) }),
    ),
  }));
}

interface MemoryChecks {
  claims: ClaimForCheck[];
  checks: ClaimCheck[];
}

function groupByMemory(
  claims: readonly ClaimForCheck[],
  checks: readonly ClaimCheck[],
): Map<string, MemoryChecks> {
  const byMemory = new Map<string, MemoryChecks>();
  claims.forEach((claim, i) => {
    const check = checks[i] as ClaimCheck;
    let group = byMemory.get(claim.memoryId);
    if (!group) byMemory.set(claim.memoryId, (group = { claims: [], checks: [] }));
    group.claims.push(claim);
    group.checks.push(check);
  });
  return byMemory;
}

/**
 * One transaction: new claims with their verdicts, changed verdicts, statuses, valid_to of
 * memories that became false, drift events, and the history answers the check learned.
 */
function recordResults(
  store: MemoryStore,
  byMemory: Map<string, MemoryChecks>,
  extracted: readonly Extracted[],
  actor: Actor,
  ctx: VerificationContext,
): MemoryDrift[] {
  return store.write((tx, now) => {
    if (ctx.git) ctx.history.save(tx, ctx.git.head, now);
    const checksOf = new Map<ClaimForCheck, ClaimCheck>();
    for (const { claims, checks } of byMemory.values())
      claims.forEach((claim, i) => checksOf.set(claim, checks[i] as ClaimCheck));
    storeClaims(tx, extracted, now, checksOf);
    const results: MemoryDrift[] = [];
    const current = checkedMemories(tx, [...byMemory.keys()]);
    for (const [id, { claims, checks }] of byMemory) {
      claims.forEach((claim, i) => {
        const check = checks[i] as ClaimCheck;
        // checked_at is when the verdict was last set: an unchanged verdict is not written again,
        // and a new claim was stored with its verdict above.
        if (claim.id === 0) return;
        if (claim.verdict !== check.verdict || !sameEvidence(claim.evidence, check.evidence))
          saveVerdict(tx, claim.id, check, now);
      });
      let memory = current.get(id) ?? { ...currentMemory(tx, id), status: null, appliedValidTo: null };
      // A doubtful finding says nothing is false (driftStatusOf): what it reads still counts as said.
      const falseSpans = claims
        .filter((_, i) => checks[i]?.verdict === 'stale' && checks[i]?.evidence.doubtful !== true)
        .map((c) => c.span);
      const status = driftStatusOf(checks, falseSpans.length > 0 && saysMoreThan(memory.content, falseSpans));
      const state = memory;
      const since = status === 'stale' || status === 'dead' ? falseSince(checks) : undefined;
      if (since !== undefined && state.appliedValidTo !== since) {
        const validTo = Math.max(since, memory.validFrom);
        reviseVersion(tx, currentMemory(tx, id), { validTo }, 'edited', now);
        markValidToApplied(tx, id, since);
        memory = { ...memory, validTo: currentMemory(tx, id).validTo };
      }
      if (state.status !== status) {
        saveMemoryStatus(tx, id, status, now);
        if (state.status != null || DRIFTED.has(status)) {
          store.ledger.append(tx, now, {
            type: 'drift',
            memoryId: id,
            agent: actor.agent ?? null,
            session: actor.session ?? null,
            data: driftEventData(status, state.status ?? null, checks, memory.validTo),
          });
        }
      }
      results.push({
        id,
        status,
        excerpt: memory.content.slice(0, 200),
        validTo: memory.validTo,
        suggestion: suggestionFor(status, checks),
        claims: oneFindingPerFact(
          memory.content,
          claims.map((claim, i) => {
            const check = checks[i] as ClaimCheck;
            return {
              kind: claim.kind,
              subject: claim.subject,
              span: claim.span,
              negated: claim.negated,
              ...(claim.file === undefined ? {} : { file: claim.file }),
              ...(claim.fileSpan === undefined ? {} : { fileSpan: claim.fileSpan }),
              ...(claim.line === undefined ? {} : { line: claim.line }),
              ...(claim.version === undefined ? {} : { version: claim.version }),
              verdict: check.verdict,
              evidence: check.evidence,
            };
          }),
        ),
      });
    }
    return results;
  });
}

function sameEvidence(stored: ClaimCheck['evidence'] | null, found: ClaimCheck['evidence']): boolean {
  return stored !== null && JSON.stringify(stored) === JSON.stringify(found);
}

function driftEventData(
  status: DriftStatus,
  previous: DriftStatus | null,
  checks: readonly ClaimCheck[],
  validTo: number | null,
): Record<string, unknown> {
  const drifted = checks.filter((c) => c.verdict === 'stale' || c.verdict === 'moved');
  const commits = [...new Set(drifted.map((c) => c.evidence.commit?.hash).filter((h) => h !== undefined))];
  return { status, previous, validTo, commits, reasons: drifted.map((c) => c.evidence.reason) };
}

function suggestionFor(status: DriftStatus, checks: readonly ClaimCheck[]): Repair | null {
  if (status === 'dead') return 'invalidate';
  if (status === 'moved') return 'rewrite';
  if (status === 'stale') return checks.some((c) => c.verdict === 'moved') ? 'rewrite' : 'review';
  return null;
}

function countOf<T extends string>(keys: readonly T[], values: readonly T[]): Record<T, number> {
  const counts = Object.fromEntries(keys.map((k) => [k, 0])) as Record<T, number>;
  for (const value of values) counts[value]++;
  return counts;
}

export type { Verdict };
