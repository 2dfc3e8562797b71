import type { MethodName } from '../api/methods';
import type { Scope } from './teamTokens';

/**
 * The methods a team server serves, and the scope each needs. An allowlist, not the method table's
 * `write` flag: methods that read the server's own disk (import, export to a file, capture of
 * agent logs, the code index of a workspace, team files in git) are not served at all, and a few
 * that write only the caller's session bookkeeping are reads here.
 */
export const METHOD_SCOPES: Partial<Record<MethodName, Scope>> = {
  get: 'memory:read',
  list: 'memory:read',
  history: 'memory:read',
  asOf: 'memory:read',
  recall: 'memory:read',
  entities: 'memory:read',
  related: 'memory:read',
  stats: 'memory:read',
  timeline: 'memory:read',
  events: 'memory:read',
  explain: 'memory:read',
  skills: 'memory:read',
  contextLevels: 'memory:read',
  injectionCheck: 'memory:read',
  lifecycleSettings: 'memory:read',
  // What a client's replica of the team scope copies (teamReplica.ts); replicaApply and
  // replicaPosition are local only.
  replicaChanges: 'memory:read',
  // Writes only which memories the caller's session was shown (the injection ledger), no memory.
  context: 'memory:read',
  injectionMark: 'memory:read',
  injectionEvict: 'memory:read',
  touchSession: 'memory:read',
  remember: 'memory:write',
  rememberMany: 'memory:write',
  edit: 'memory:write',
  annotate: 'memory:write',
  invalidate: 'memory:write',
  forget: 'memory:write',
  restore: 'memory:write',
  pin: 'memory:write',
  unpin: 'memory:write',
  archive: 'admin',
  mergeEntities: 'admin',
  lifecycle: 'admin',
  consolidate: 'admin',
  unconsolidate: 'admin',
  dedup: 'admin',
  // The team's retention rules: every process that opens the store applies them.
  configureLifecycle: 'admin',
};

/** `admin` holds every scope, `memory:write` holds `memory:read`. */
export function grants(held: readonly Scope[], needed: Scope): boolean {
  if (held.includes('admin')) return true;
  if (needed === 'memory:read') return held.includes('memory:read') || held.includes('memory:write');
  return held.includes(needed);
}
