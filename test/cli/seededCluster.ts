import { engram } from './engramCli';

/**
 * Three episodes in `cwd`'s database that consolidation clusters (they share src/billing/retry.ts
 * and Redis), each read twice through the CLI so that they count as recalled.
 */
export async function seedCluster(cwd: string, env: Record<string, string> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (const content of [
    'The billing worker in src/billing/retry.ts retries invoices on timeout. It logs to stderr.',
    'We moved the queue of src/billing/retry.ts to Redis last week.',
    'Redis keys for billing invoices expire after a day.',
  ]) {
    const made = await engram(cwd, ['--json', 'remember', '--layer', 'episodic', content], env);
    ids.push((JSON.parse(made.out) as { memory: { id: string } }).memory.id);
  }
  for (const id of [...ids, ...ids]) await engram(cwd, ['get', id], env);
  return ids;
}
