import { defineMethod } from './defineMethod';
import { duplicatesPending } from './duplicatesPending';
import type { DuplicatesPending } from './duplicatesPending';
import { lifecycleHealthFacts } from './lifecycleHealth';
import type { LifecycleHealthFacts } from './lifecycleHealth';
import { NO_PARAMS } from './memoryParams';

/** The Analytics tab's Lifecycle/Health section: `lifecycleHealth` {}. */
export interface LifecycleHealth extends LifecycleHealthFacts {
  duplicates: DuplicatesPending;
}

export const HEALTH_METHODS = {
  /** Retention curve, archived and promoted counts, lifecycle runs, storage quality, duplicates pending. */
  lifecycleHealth: defineMethod({
    params: NO_PARAMS,
    write: false,
    run: async (engine): Promise<LifecycleHealth> => {
      const facts = engine.store.read((r) =>
        lifecycleHealthFacts(r, engine.store.clock(), engine.lifecycleSettings.rules()),
      );
      return { ...facts, duplicates: await duplicatesPending(engine) };
    },
  }),
};
