import { z } from 'zod';
import { viewerOf } from '../memory/visibility';
import { currentMemory, resolveId } from '../memory/memoryQueries';
import { runLifecyclePass } from '../lifecycle/lifecyclePass';
import { lifecycleFacts } from '../lifecycle/lifecycleFacts';
import { applyDedup, planDedup } from '../lifecycle/dedupPass';
import { undoConsolidation } from '../lifecycle/consolidationUndo';
import { runConsolidation } from '../lifecycle/consolidationRun';
import { summaryOriginOf } from '../lifecycle/modelSummaries';
import { planPeerCards } from '../lifecycle/storedPeerCards';
import { plannedProbes } from '../lifecycle/probeOutcomes';
import { DEFAULT_NEAR_DUPLICATE_THRESHOLD } from '../memory/novelty';
import { LIFECYCLE_SETTING_FIELDS } from '../lifecycle/lifecycleSettings';
import { defineMethod, methodParams } from './defineMethod';
import { ID_PARAMS } from './memoryParams';
import { actorOf } from './params';

/** `lifecycle` {dryRun?}: promote what has earned it, archive what has faded; a dry run (the default) only plans. */
const LIFECYCLE_PARAMS = methodParams({ dryRun: z.boolean().optional() });

/**
 * `consolidate`'s model summaries (engine/lifecycle/summariser.ts): a dry run with
 * `summaryRequests` says what would be sent per cluster; an applying run with `summaries` uses
 * those a caller's model wrote. A text past the summary limit is not refused here: it falls back
 * to the extractive gist with the reason, as any unfit summary does.
 */
const CONSOLIDATE_PARAMS = methodParams({
  dryRun: z.boolean().optional(),
  summaryRequests: z.boolean().optional(),
  summaries: z
    .array(
      z.object({
        members: z.array(z.string().max(100)).min(1).max(10_000),
        basis: z.string().max(100).optional(),
        text: z.string().max(1_000_000).optional(),
        model: z.string().max(300).optional(),
        failure: z.string().max(1000).optional(),
      }),
      { error: 'summaries must be a list of {members, text?, model?, failure?}' },
    )
    .max(10_000)
    .optional(),
});

/** `dedup` {dryRun?, threshold?}: merge restatements; a dry run (the default) only lists the pairs. */
const DEDUP_PARAMS = methodParams({
  dryRun: z.boolean().optional(),
  threshold: z.number({ error: 'threshold must be a number' }).min(0.5).max(1).optional(),
});

/** `configureLifecycle` {decay?, halfLifeDays?, ...}: the settings to change; the others stay. */
const CONFIGURE_PARAMS = methodParams(
  Object.fromEntries(
    Object.entries(LIFECYCLE_SETTING_FIELDS).map(([key, field]) => [key, field.optional()]),
  ) as { [K in keyof typeof LIFECYCLE_SETTING_FIELDS]: z.ZodOptional<(typeof LIFECYCLE_SETTING_FIELDS)[K]> },
);

export const LIFECYCLE_METHODS = {
  /** Why a memory is kept or would be archived: retention, importance factors, the archive rule. */
  explain: defineMethod({
    params: ID_PARAMS,
    write: false,
    run: ({ store, lifecycleSettings }, p) =>
      store.read((r) => {
        const memory = currentMemory(r, resolveId(r, p.id, viewerOf(p)));
        const [facts] = lifecycleFacts(r, [memory], store.clock(), lifecycleSettings.rules());
        const summary = summaryOriginOf(r, memory.id);
        return {
          ...facts!,
          layer: memory.layer,
          trust: memory.trust,
          status: memory.status,
          ...(summary ? { summary } : {}),
        };
      }),
  }),
  /**
   * Also probes old beliefs against the workspace when there is one (beliefProbe.ts): before the
   * pass, since the drift check is long, async and records its own findings; a dry run lists them.
   */
  lifecycle: defineMethod({
    params: LIFECYCLE_PARAMS,
    write: true,
    prepare: async ({ store, code }, p) => {
      const { plannedProbes, probeBeliefs } = await import('../lifecycle/beliefProbe');
      const ids = store.read((r) => plannedProbes(r, store.clock()));
      const root = code?.options.root;
      if (p.dryRun !== false || !root) return { planned: root ? ids : [], probed: [] };
      return { planned: ids, probed: await probeBeliefs(store, root, ids) };
    },
    run: ({ store, lifecycleSettings }, p, probes) => ({
      ...runLifecyclePass(store, { dryRun: p.dryRun ?? true, rules: lifecycleSettings.rules() }),
      probes,
    }),
  }),
  /**
   * `consolidate` {dryRun?}: clusters of relevant episodes become one semantic memory each, applied
   * in slices off the request's transaction (consolidationRun.ts), so a long run leaves the event
   * loop free; asked for, it runs even when nothing changed since the last run. With `summaries`
   * (written by a caller's language model for an earlier dry run's clusters) the fit ones replace
   * the extractive gists, marked as model-written (engine/lifecycle/modelSummaries.ts).
   */
  consolidate: defineMethod({
    params: CONSOLIDATE_PARAMS,
    write: true,
    prepare: ({ store, planConsolidation }, p) =>
      runConsolidation(store, {
        dryRun: p.dryRun ?? true,
        force: true,
        plan: planConsolidation,
        summaryRequests: p.summaryRequests,
        summaries: p.summaries,
      }),
    run: ({ store }, p, done) => {
      // What the lifecycle run's other steps would do next (they run with `lifecycle`).
      const next = store.read((r) => ({
        peerCards: planPeerCards(r),
        probes: plannedProbes(r, store.clock()),
      }));
      return { ...done, next };
    },
  }),
  /** The lifecycle settings in force in this database (the seeds' defaults until configured). */
  lifecycleSettings: defineMethod({
    params: methodParams({}),
    write: false,
    run: ({ lifecycleSettings }) => lifecycleSettings.get(),
  }),
  /**
   * Changes some lifecycle settings (lifecycleSettings.ts): recorded as an event when they change
   * anything, in force from the next lifecycle run, the timed one rescheduled to the new interval.
   */
  configureLifecycle: defineMethod({
    params: CONFIGURE_PARAMS,
    write: true,
    run: ({ lifecycleSettings }, p) => {
      const { actor, readOnly: _readOnly, ...changes } = p;
      return lifecycleSettings.update(changes, actorOf({ actor }));
    },
  }),
  /** `unconsolidate` {id}: the consolidated memory's members back in recall, the memory superseded by them. */
  unconsolidate: defineMethod({
    params: ID_PARAMS,
    write: true,
    run: ({ store }, p) => undoConsolidation(store, p.id, actorOf(p)),
  }),
  dedup: defineMethod({
    params: DEDUP_PARAMS,
    write: true,
    prepare: async (engine, p) => {
      await engine.ensureVectors();
      return planDedup(engine.store, engine.vectors, p.threshold ?? DEFAULT_NEAR_DUPLICATE_THRESHOLD);
    },
    run: ({ store }, p, pairs) => {
      const dryRun = p.dryRun ?? true;
      return { dryRun, pairs, merged: dryRun ? 0 : applyDedup(store, pairs) };
    },
  }),
};
