// Retrieval of captured sessions by commit message (issue 20, section 8): the sessions' memories
// are distilled as a capture run does (summary, stated conventions, lessons), then for each commit
// a session is linked to, its subject line is recalled (top 5; the bench has no embedding model,
// so the lexical channels only) and the commit counts as found when a memory of one of the
// sessions linked to it is among the five. Measured on every linked commit, right or wrong: the
// question is whether a person asking with the commit's words gets back the session behind it.
import { execFileSync } from 'node:child_process';
import type { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { writeSessionLessons } from '../../engine/capture/sessionLessons';
import { writeSessionSummaries } from '../../engine/capture/sessionSummary';
import { writeStatedConventions } from '../../engine/capture/statedConventions';

const TOP = 5;

/** Distils the sessions' memories as `runCapture` does after linking; the memories written. */
export async function distilSessions(host: EngineDispatcher, sessions: readonly string[]): Promise<number> {
  const summaries = await writeSessionSummaries(host.store, sessions);
  const conventions = await writeStatedConventions(host.store, sessions);
  const lessons = await writeSessionLessons(host.store, sessions);
  return summaries + conventions + lessons;
}

/**
 * Per commit linked to some session: does recalling its subject return a memory of one of those
 * sessions in the top 5? `owner` maps a session id to its transcript's (a sub-agent's to its
 * parent's); each commit comes back with its sessions, so a caller can split them into halves.
 */
export async function commitMessageRecall(
  host: EngineDispatcher,
  root: string,
  links: ReadonlyArray<{ session_id: string; commit_sha: string }>,
  owner: (session: string) => string,
): Promise<Map<string, { sessions: Set<string>; found: boolean }>> {
  const sessionsOf = new Map<string, Set<string>>();
  for (const l of links) {
    sessionsOf.set(l.commit_sha, (sessionsOf.get(l.commit_sha) ?? new Set()).add(owner(l.session_id)));
  }
  const results = new Map<string, { sessions: Set<string>; found: boolean }>();
  let seq = 0;
  for (const [sha, sessions] of sessionsOf) {
    const subject = execFileSync('git', ['-C', root, 'log', '-1', '--format=%s', sha], {
      encoding: 'utf8',
    }).trim();
    const result = (await host.dispatch(
      'recall',
      { query: subject.slice(0, 500) || sha, k: TOP, readOnly: true },
      { requestId: `commit-recall-${++seq}`, client: 'bench', local: true },
    )) as { hits: Array<{ memory: { session: string | null } }> };
    const found = result.hits.some((h) => h.memory.session !== null && sessions.has(owner(h.memory.session)));
    results.set(sha, { sessions, found });
  }
  return results;
}
