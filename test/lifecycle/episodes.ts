import type { TestHost } from '../support/host';

/** Writes an episode (no dedupe: tests of the lifecycle want every write kept), in `session` if given. */
export async function episode(t: TestHost, content: string, session?: string): Promise<string> {
  const result = await t.call('remember', {
    content,
    layer: 'episodic',
    dedupe: false,
    ...(session ? { actor: { session } } : {}),
  });
  return result.memory.id;
}
