import { realpathSync } from 'node:fs';
import { extractClaims } from '../drift/claimExtractor';
import { newClaimsForCheck, pendingExtraction } from '../drift/claimStore';
import { checkSelection } from '../drift/driftCheck';
import { DRIFTED } from '../drift/driftStatus';
import { readManifestFacts } from '../drift/manifestFacts';
import { claimsForCheck } from '../drift/claimStore';
import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';
import { NOT_A_CARD } from './storedPeerCards';
import type { ProbeOutcome } from './probeOutcomes';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Belief probing (issue 21 section 3.7, seed 003): old semantic and procedural memories are checked
 * again against the workspace by drift, a few per run. Evidence against one (drift finds it moved,
 * stale or dead) halves its importance (`engram explain` shows the probe) and leaves the drift
 * finding that asks for review; a memory drift confirms gains a confirmation.
 */
export const PROBE_RULE = {
  /** Memories written this many days ago or earlier are probed. @default 30 */
  afterDays: 30,
  /** A memory is probed again after this many days. @default 30 */
  everyDays: 30,
  /** Memories probed per run. @default 20 */
  perRun: 20,
};

export interface ProbeResult {
  memoryId: string;
  outcome: ProbeOutcome;
  /** The drift status the check found. */
  status: string;
}

/** The memories the next run would probe: oldest first, not probed in the last `everyDays`. */
export function plannedProbes(reader: SqlReader, now: number): string[] {
  return reader
    .all<{ id: string }>(
      `SELECT m.id AS id FROM memories m
       WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.layer IN ('semantic', 'procedural')
         AND m.valid_from <= ? AND ${NOT_A_CARD}
         AND NOT EXISTS (SELECT 1 FROM events e WHERE e.memory_id = m.id AND e.type = 'probe' AND e.at > ?)
       ORDER BY m.valid_from, m.id LIMIT ?`,
      [now - PROBE_RULE.afterDays * DAY, now - PROBE_RULE.everyDays * DAY, PROBE_RULE.perRun],
    )
    .map((row) => row.id);
}

/** Probes `ids` against the workspace at `root`: drift records its findings, this run the outcomes. */
export async function probeBeliefs(
  store: MemoryStore,
  root: string,
  ids: readonly string[],
): Promise<ProbeResult[]> {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  const manifests = store.read((r) => readManifestFacts(r, root, realpathSync(root)));
  const options = { projectPrograms: manifests.programs, projectPackages: manifests.ownNames };
  // Memories never checked have no stored claims yet: theirs are extracted here, as drift does.
  const extracted = store
    .read(pendingExtraction)
    .filter((m) => wanted.has(m.id))
    .map((memory) => ({ memory, claims: newClaimsForCheck(memory, extractClaims(memory.content, options)) }));
  const fresh = new Set(extracted.map((e) => e.memory.id));
  const stored = store.read((r) => claimsForCheck(r, [...ids])).filter((c) => !fresh.has(c.memoryId));
  const claims = [...stored, ...extracted.flatMap((e) => e.claims)];
  const report = await checkSelection(
    store,
    root,
    { manifests, extracted, claims, incremental: true },
    { all: true, actor: { agent: 'engram-lifecycle' } },
  );
  const results = report.memories.map((m): ProbeResult => ({
    memoryId: m.id,
    status: m.status,
    outcome: DRIFTED.has(m.status) ? 'against' : m.status === 'ok' ? 'confirmed' : 'unverifiable',
  }));
  store.write((tx, now) => {
    for (const r of results) {
      if (r.outcome === 'confirmed')
        tx.run('UPDATE memory_state SET confirmations = confirmations + 1 WHERE id = ?', [r.memoryId]);
      store.ledger.append(tx, now, {
        type: 'probe',
        memoryId: r.memoryId,
        agent: 'engram-lifecycle',
        data: { outcome: r.outcome, status: r.status },
      });
    }
  });
  return results;
}
