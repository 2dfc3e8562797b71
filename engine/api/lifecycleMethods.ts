import { z } from 'zod';
import { currentMemory, resolveId } from '../memory/memoryQueries';
import { runLifecyclePass } from '../lifecycle/lifecyclePass';
import { lifecycleFacts } from '../lifecycle/lifecycleFacts';
import { defineMethod, methodParams } from './defineMethod';
import { ID_PARAMS } from './memoryParams';

/** `lifecycle` {dryRun?}: promote what has earned it, archive what has faded; a dry run (the default) only plans. */
const LIFECYCLE_PARAMS = methodParams({ dryRun: z.boolean().optional() });

export const LIFECYCLE_METHODS = {
  /** Why a memory is kept or would be archived: retention, importance factors, the archive rule. */
  explain: defineMethod({
    params: ID_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) => {
        const memory = currentMemory(r, resolveId(r, p.id));
        const [facts] = lifecycleFacts(r, [memory], store.clock());
        return { ...facts!, layer: memory.layer, trust: memory.trust, status: memory.status };
      }),
  }),
  lifecycle: defineMethod({
    params: LIFECYCLE_PARAMS,
    write: true,
    run: ({ store }, p) => runLifecyclePass(store, { dryRun: p.dryRun ?? true }),
  }),
};
