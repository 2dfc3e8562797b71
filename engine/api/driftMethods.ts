import { invalidInput } from '../errors';
import { claimsForCheck } from '../drift/claimStore';
import { checkDrift, requireDriftRoot } from '../drift/driftCheck';
import { fixDrift } from '../drift/driftRepair';
import type { MemoryStore } from '../memory/memoryStore';
import { resolveId } from '../memory/memoryQueries';
import { actorOf, optionalBoolean, stringList, text } from './params';
import type { Params } from './params';
import { defineMethod, UNCHECKED_PARAMS } from './defineMethod';

function pathsOf(p: Params): string[] | undefined {
  if (p['paths'] === undefined || p['paths'] === null) return undefined;
  const paths = stringList(p, 'paths');
  if (paths.some((path) => path.trim() === '')) throw invalidInput('paths must not hold empty text');
  return paths;
}

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
export const DRIFT_METHODS = {
  drift: defineMethod({
    params: UNCHECKED_PARAMS,
    write: false,
    run: (store: MemoryStore, p: Params) => {
      requireDriftRoot(store);
      const fix = optionalBoolean(p, 'fix') === true || optionalBoolean(p, 'autoFix') === true;
      const dryRun = optionalBoolean(p, 'dryRun') === true;
      if (dryRun && !fix) throw invalidInput('dryRun needs fix: a check alone changes no memory');
      const paths = pathsOf(p);
      const ids = p['ids'] === undefined || p['ids'] === null ? undefined : stringList(p, 'ids');
      if (ids && !fix) throw invalidInput('ids needs fix: they name the memories whose repair was accepted');
      const options = {
        ...(paths ? { paths } : {}),
        ...(ids ? { ids: store.read((r) => ids.map((id) => resolveId(r, id))) } : {}),
        all: optionalBoolean(p, 'all') === true,
        actor: actorOf(p),
      };
      return fix ? fixDrift(store, { ...options, dryRun }) : checkDrift(store, options);
    },
  }),
  driftClaims: defineMethod({
    params: UNCHECKED_PARAMS,
    write: false,
    run: (store: MemoryStore, p: Params) =>
      store.read((r) => {
        const id = resolveId(r, text(p, 'id'));
        return claimsForCheck(r, [id]).map(({ memoryValidFrom: _v, sourceFile: _s, ...claim }) => claim);
      }),
  }),
} as const;
