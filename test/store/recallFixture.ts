import { allDocuments, syncRecallRows } from '../../engine/pgStore/recallRowSync';
import type { ReplicaRead } from '../../engine/pgStore/recallRowSync';
import { ensureRecallTables } from '../../engine/pgStore/recallTables';
import type { Queryable, VectorColumn } from '../../engine/pgStore/recallTables';
import { openTestHost } from '../support/host';

/**
 * A small labelled set for recall parity between stores: memories a team would keep, and
 * questions each answered by one of them (`answer`, a memory's label). Written by hand for these
 * tests; nothing was tuned on it.
 */
export const MEMORIES: ReadonlyArray<{ label: string; content: string; tags?: string[] }> = [
  { label: 'deploy', content: 'We deploy from main only, through the release workflow', tags: ['ci'] },
  { label: 'tags', content: 'Release tags follow vX.Y.Z and are pushed by the release workflow' },
  { label: 'staging', content: 'The staging database is reset every Monday at 06:00 UTC' },
  { label: 'stripe', content: 'Payments go through Stripe; webhooks land on /api/stripe/webhook' },
  { label: 'retries', content: 'Webhook handlers must be idempotent: Stripe retries for three days' },
  { label: 'node', content: 'CI runs on Node 20 and caches node_modules between jobs', tags: ['ci'] },
  { label: 'lint', content: 'ESLint runs before the tests; a lint error fails the build' },
  { label: 'review', content: 'Every pull request needs one approving review from the owning team' },
  { label: 'flags', content: 'Feature flags live in LaunchDarkly and are removed a month after rollout' },
  { label: 'logging', content: 'Use the structured logger (pino); never console.log in services' },
  { label: 'pagination', content: 'List endpoints paginate with an opaque cursor, 50 items a page' },
  { label: 'timezone', content: 'Store every timestamp in UTC; convert only in the UI' },
  { label: 'secrets', content: 'Secrets come from Vault at start; never commit .env files' },
  { label: 'migrations', content: 'Database migrations are forward-only and reviewed by a DBA' },
  { label: 'oncall', content: 'The on-call rotation changes on Tuesdays; pages go to PagerDuty' },
  { label: 'cache', content: 'Redis caches session data for 30 minutes; the key prefix is sess:' },
];

export const LABELLED: ReadonlyArray<{ query: string; answer: string }> = [
  { query: 'how do we deploy', answer: 'deploy' },
  { query: 'which node version does CI use', answer: 'node' },
  { query: 'stripe webhook retries', answer: 'retries' },
  { query: 'when is staging reset', answer: 'staging' },
  { query: 'where do feature flags live', answer: 'flags' },
  { query: 'how should services log', answer: 'logging' },
  { query: 'page size of list endpoints', answer: 'pagination' },
  { query: 'are migrations reversible', answer: 'migrations' },
  { query: 'who gets paged on call', answer: 'oncall' },
  { query: 'session cache expiry redis', answer: 'cache' },
];

/** Anything that calls engine methods (an Engram, a test host). */
type Caller = (method: 'remember', params: Record<string, unknown>) => Promise<{ memory: { id: string } }>;

/** Remembers MEMORIES in order; returns memory id -> label. */
export async function rememberLabelled(call: Caller): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for (const { label, content, tags } of MEMORIES) {
    const { memory } = await call('remember', { content, ...(tags ? { tags } : {}) });
    labels.set(memory.id, label);
  }
  return labels;
}

/** A sql.js engine host in a temp directory, with its store's reads. */
export async function sqlJsHost(): Promise<{
  call: Caller;
  read: ReplicaRead;
  write: (sql: string, params: Array<string | number | Uint8Array>) => void;
  close: () => Promise<void>;
}> {
  const t = await openTestHost();
  return {
    call: (method, params) => t.call(method, params),
    read: (fn) => t.host.store.read(fn),
    write: (sql, params) => t.host.store.write((tx) => tx.run(sql, params)),
    close: () => t.host.close(),
  };
}

/** Creates the recall tables on `db` and copies every document of a sql.js store into them. */
export async function copyIntoRecallTables(db: Queryable, read: ReplicaRead): Promise<VectorColumn> {
  await db.query('BEGIN');
  const column = await ensureRecallTables(db);
  await syncRecallRows(db, read, read(allDocuments), column);
  await db.query('COMMIT');
  return column;
}
