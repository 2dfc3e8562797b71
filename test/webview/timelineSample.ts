import { driftHost, rememberAt } from '../drift/driftHost';
import { GitRepository } from '../drift/gitRepository';
import type { TestHost } from '../support/host';
import { captureSynthetic } from '../capture/capturedSession';

export const SAMPLE_SESSION = '5f0c2a4e-2222-4a2b-9c3d-000000000002';

export const HOSTILE = '<img src=x onerror="alert(1)"> and [a link](command:engram.forgetMemory) stay text';

/**
 * A small real store for the browser tests and the screenshot: a git repository whose history
 * makes one memory stale, two scans, memories in every layer, a supersession, an invalidation
 * replaced by a memory on the same subject, an edited memory, one hostile memory, and a captured
 * Claude Code session of three turns (an hour of the second day).
 */
export async function sampleStore(): Promise<{ test: TestHost; ids: Record<string, string> }> {
  const repo = new GitRepository();
  repo.commit('initial', '2025-01-06T09:00:00Z', {
    write: { 'src/config.ts': 'export const port = 1;\n', 'src/auth.ts': 'export function login() {}\n' },
  });
  repo.commit('Drop the config module', '2025-01-09T15:00:00Z', { remove: ['src/config.ts'] });
  const test = await driftHost(repo.root);
  test.clock.now = Date.parse('2025-01-06T10:00:00Z');
  await test.call('scan');
  const hour = 3_600_000;
  const ids: Record<string, string> = {};
  const add = async (key: string, params: Record<string, unknown>) => {
    test.clock.advance(5 * hour);
    ids[key] = (await test.call('remember', { dedupe: false, ...params })).memory.id;
  };
  await add('tuesday', {
    content: 'Deploys go out on Tuesdays',
    conflictKey: 'deploy-day',
    kind: 'decision',
  });
  await add('pnpm', { content: 'Use pnpm for installs', kind: 'decision', tags: ['tooling'] });
  await add('retry', { content: 'Retry flaky tests once', layer: 'procedural', kind: 'procedure' });
  await add('standup', {
    content: 'Standup moved to 10:00',
    layer: 'episodic',
    kind: 'note',
    actor: { agent: 'claude' },
  });
  await add('scratch', {
    content: 'Currently bisecting the login bug',
    layer: 'working',
    kind: 'note',
    session: 's1',
  });
  await add('webpack', { content: 'Builds use webpack', conflictKey: 'bundler' });
  await add('api', { content: 'The API answers in JSON', tags: ['api'] });
  await add('hostile', { content: HOSTILE, tags: ['<b>tag</b>'], actor: { agent: '<i>agent</i>' } });
  test.clock.advance(20 * hour);
  await test.call('edit', { id: ids['api'], changes: { content: 'The API answers in JSON and CSV' } });
  await add('thursday', {
    content: 'Deploys go out on Thursdays',
    conflictKey: 'deploy-day',
    kind: 'decision',
  });
  test.clock.advance(10 * hour);
  await test.call('invalidate', { id: ids['webpack'], reason: 'moved to esbuild' });
  await add('esbuild', { content: 'Builds use esbuild', conflictKey: 'bundler' });
  ids['stale'] = await rememberAt(test, 'The port is set in src/config.ts', '2025-01-07T12:00:00Z');
  test.clock.advance(hour);
  await test.call('drift');
  test.clock.advance(5 * hour);
  await test.call('scan');
  test.clock.advance(24 * hour);
  await captureSynthetic(test.host.store, repo.root, SAMPLE_SESSION, 3, '2025-01-07T09:00:00Z');
  return { test, ids };
}
