import type { ChangeSet } from '../code/types';
import type { MemoryStore } from '../memory/memoryStore';
import type { Actor } from '../memory/types';
import { checkSelection, requireDriftRoot, selectClaims } from './driftCheck';
import type { ScanDrift } from './driftReport';
import { DRIFTED } from './driftStatus';

/** Every path a scan found added, changed, deleted or renamed (both sides of a rename). */
export function changedPathsOf(changes: ChangeSet): string[] {
  return [
    ...changes.added,
    ...changes.changed,
    ...changes.deleted,
    ...changes.renamed.flatMap((r) => [r.from, r.to]),
  ];
}

/**
 * Drift after a scan, an engine rule so every host (VS Code, `engram scan`, MCP `code_scan`) gets
 * it in the scan's one round trip: the memories the changes may affect are checked again, found
 * through the claims' path indexes. Nothing changed, or no memory naming a changed path and none
 * waiting for its first check: nothing is read from git or the code index.
 */
export async function driftOfScan(
  store: MemoryStore,
  workspaceRoot: string | undefined,
  changes: ChangeSet,
  actor: Actor,
): Promise<ScanDrift> {
  const paths = changedPathsOf(changes);
  if (paths.length === 0) return { checked: [], memories: [] };
  const root = requireDriftRoot(workspaceRoot);
  const selection = await selectClaims(store, root, paths);
  if (selection.claims.length === 0 && selection.extracted.length === 0) return { checked: [], memories: [] };
  const report = await checkSelection(store, root, selection, { all: true, actor });
  return {
    checked: report.memories.map((m) => m.id),
    memories: report.memories.filter((m) => DRIFTED.has(m.status)),
  };
}
