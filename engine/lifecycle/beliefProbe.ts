import { realpathSync } from 'node:fs';
import { extractClaims } from '../drift/claimExtractor';
import { claimsForCheck, newClaimsForCheck, pendingExtraction } from '../drift/claimStore';
import { checkSelection } from '../drift/driftCheck';
import { DRIFTED } from '../drift/driftStatus';
import { readManifestFacts } from '../drift/manifestFacts';
import type { MemoryStore } from '../memory/memoryStore';
import type { ProbeOutcome } from './probeOutcomes';
export { plannedProbes } from './probeOutcomes';

/**
 * Belief probing (issue 21 section 3.7, seed 003): old semantic and procedural memories are checked
 * again against the workspace by drift, a few per run. Evidence against one (drift finds it moved,
 * stale or dead) halves its importance (`engram explain` shows the probe) and leaves the drift
 * finding that asks for review; a memory drift confirms gains a confirmation. Which memories and
 * how many per run: PROBE_RULE (probeOutcomes.ts, apart so the engine loads the checker lazily).
 */
export interface ProbeResult {
  memoryId: string;
  outcome: ProbeOutcome;
  /** The drift status the check found. */
  status: string;
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
  // A memory without claims is not in the report: it is recorded too, or it would head every run's list.
  const checked = new Set(results.map((r) => r.memoryId));
  for (const id of ids)
    if (!checked.has(id)) results.push({ memoryId: id, status: 'none', outcome: 'unverifiable' });
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
