import ignore from 'ignore';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import type { CaptureAgent, CaptureEvent } from './events';

export interface CaptureExcludes {
  /** Agents whose sessions are never read. */
  agents: CaptureAgent[];
  /** Workspace paths, as .gitignore patterns: a record touching one is not kept. */
  paths: string[];
}

const KEY = 'excludes';

export function captureExcludes(r: SqlReader): CaptureExcludes {
  const json = r.value<string>('SELECT value FROM capture_settings WHERE key = ?', [KEY]);
  if (json === undefined) return { agents: [], paths: [] };
  const value = JSON.parse(json) as Partial<CaptureExcludes>;
  return { agents: value.agents ?? [], paths: value.paths ?? [] };
}

/** Adds (or with `remove`, takes away) agents and path patterns; returns the new excludes. */
export function changeExcludes(
  tx: SqlWriter,
  change: { agents?: readonly CaptureAgent[]; paths?: readonly string[]; remove?: boolean },
): CaptureExcludes {
  const current = captureExcludes(tx);
  const apply = <T>(list: T[], items: readonly T[] | undefined): T[] =>
    change.remove
      ? list.filter((x) => !(items ?? []).includes(x))
      : [...new Set([...list, ...(items ?? [])])];
  const next = { agents: apply(current.agents, change.agents), paths: apply(current.paths, change.paths) };
  tx.run('INSERT OR REPLACE INTO capture_settings (key, value) VALUES (?, ?)', [KEY, JSON.stringify(next)]);
  return next;
}

/** Whether a workspace-relative path is excluded; undefined when no pattern is set. */
export function pathMatcher(patterns: readonly string[]): ((relative: string) => boolean) | undefined {
  if (patterns.length === 0) return undefined;
  const rules = ignore().add([...patterns]);
  // Paths outside the workspace (absolute) are not the patterns' business.
  return (relative) => !relative.startsWith('/') && !relative.startsWith('..') && rules.ignores(relative);
}

/**
 * Whether a record's events touch an excluded path: a file touch of it, or any event of a call
 * that touched one (its result comes in a later record, so the calls are remembered in `calls`).
 */
export function touchesExcluded(
  events: readonly CaptureEvent[],
  excluded: (file: string) => boolean,
  calls: Set<string>,
): boolean {
  let hit = false;
  for (const e of events) {
    if (e.kind === 'file-touch' && excluded(e.path)) {
      hit = true;
      if (e.callId) calls.add(e.callId);
    }
  }
  return hit || events.some((e) => 'callId' in e && e.callId !== undefined && calls.has(e.callId));
}
