import { z } from 'zod';
import { hiddenIds, viewerOf } from '../memory/visibility';
import type { Viewer } from '../memory/visibility';
import type { MemoryStore } from '../memory/memoryStore';
import type { DriftReport } from '../drift/driftReport';
import { invalidInput } from '../errors';
import { claimsForCheck } from '../drift/claimStore';
import { resolveId } from '../memory/memoryQueries';
import { actorOf } from './params';
import { rewriteRepaired } from './teamMethods';
import { defineMethod, methodParams } from './defineMethod';
import { ID_PARAMS } from './memoryParams';
import { pathList, textList } from './paramFields';

/** The parameters of `drift`; the MCP drift tools pick their fields from these. */
export const DRIFT_PARAMS = methodParams({
  fix: z.boolean().optional(),
  dryRun: z.boolean().optional(),
  autoFix: z.boolean().optional(),
  all: z.boolean().optional(),
  paths: pathList.optional(),
  ids: textList.optional(),
});

/**
 * The drift checker's methods. Not exactly-once writes: a check is idempotent (a repeated check
 * finds the same verdicts and records nothing new), long and async, so each does its own writes.
 *
 * - `drift` {fix?, dryRun?, autoFix?, paths?, all?, ids?} -> DriftReport. Checks (only the memories
 *   whose claims name `paths` when given); repairs with `fix` (or `autoFix`, the user's setting):
 *   `ids` are the memories whose repair the user accepted (human-written ones are otherwise only
 *   proposed); with `dryRun` only says what a fix would do.
 * - `driftClaims` {id} -> the memory's claims with their last verdicts.
 */
/**
 * The report as `viewer` may read it: another agent's private memories are checked and repaired
 * like any (drift keeps the whole store true) but not listed with their text (visibility.ts).
 */
function reportFor(store: MemoryStore, report: DriftReport, viewer: Viewer): DriftReport {
  if (viewer === undefined) return report;
  const hidden = store.read((r) => hiddenIds(r, viewer));
  if (hidden.size === 0) return report;
  const memories = report.memories.filter((m) => !hidden.has(m.id));
  const fix = report.fix && { ...report.fix, actions: report.fix.actions.filter((a) => !hidden.has(a.id)) };
  return { ...report, memories, ...(fix ? { fix } : {}) };
}

export const DRIFT_METHODS = {
  drift: defineMethod({
    params: DRIFT_PARAMS,
    write: false,
    run: async ({ store, code }, p) => {
      // The checker (git, the config and manifest parsers) loads on the first check: most hosts
      // never run one, and evaluating it with the engine cost every process ~5 MB.
      const [{ checkDrift, requireDriftRoot }, { fixDrift }] = await Promise.all([
        import('../drift/driftCheck'),
        import('../drift/driftRepair'),
      ]);
      const root = requireDriftRoot(code?.options.root);
      const fix = p.fix === true || p.autoFix === true;
      const dryRun = p.dryRun === true;
      if (dryRun && !fix) throw invalidInput('dryRun needs fix: a check alone changes no memory');
      const { paths, ids } = p;
      if (ids && !fix) throw invalidInput('ids needs fix: they name the memories whose repair was accepted');
      const options = {
        root,
        ...(paths ? { paths } : {}),
        ...(ids ? { ids: store.read((r) => ids.map((id) => resolveId(r, id, viewerOf(p)))) } : {}),
        all: p.all === true,
        actor: actorOf(p),
      };
      const report = await (fix ? fixDrift(store, { ...options, dryRun }) : checkDrift(store, options));
      return reportFor(store, report, viewerOf(p));
    },
    after: rewriteRepaired,
  }),
  driftClaims: defineMethod({
    params: ID_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) => {
        const id = resolveId(r, p.id, viewerOf(p));
        return claimsForCheck(r, [id]).map(({ memoryValidFrom: _v, sourceFile: _s, ...claim }) => claim);
      }),
  }),
} as const;
