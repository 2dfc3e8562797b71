import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { DriftReport, MemoryDrift } from '../../engine/drift/driftReport';
import { grammarsDirectory } from '../code/codeWorkspace';
import { openTestHost } from '../support/host';
import { GitRepository } from './gitRepository';
import type { CommitChanges } from './gitRepository';
import type { TestHost } from '../support/host';

/** An engine host whose workspace is `root` (no embedding model: drift needs none). */
export async function driftHost(root: string): Promise<TestHost> {
  const test = await openTestHost({
    code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
  });
  after(() => test.host.close());
  return test;
}

/** Before and after the one commit of a test's history that changes what the memories say. */
export const BEFORE_COMMIT = '2025-01-10T12:00:00Z';
export const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
export const CHANGE_COMMIT = '2025-03-01T12:00:00Z';

/**
 * A scanned workspace whose history is `files` then one commit `message` making `changes`: the
 * host, and the changing commit's hash. Memories remembered at BEFORE_CHANGE fall between them.
 */
export async function scannedAfterChange(
  files: Record<string, string>,
  message: string,
  changes: CommitChanges,
): Promise<{ test: TestHost; changing: string }> {
  const repo = new GitRepository();
  repo.commit('initial', BEFORE_COMMIT, { write: files });
  const changing = repo.commit(message, CHANGE_COMMIT, changes);
  const test = await driftHost(repo.root);
  await test.call('scan', { tokens: false });
  return { test, changing };
}

/** Remembers `content` as true from `validFrom` (between the commits of a test's history). */
export async function rememberAt(test: TestHost, content: string, validFrom: string): Promise<string> {
  const result = await test.call('remember', { content, validFrom, dedupe: false });
  return result.memory.id;
}

export function driftEvents(test: TestHost, memoryId: string): Array<{ data: string }> {
  return test.host.store.read((r) =>
    r.all<{ data: string }>("SELECT data FROM events WHERE type = 'drift' AND memory_id = ? ORDER BY seq", [
      memoryId,
    ]),
  );
}

/** `drift --fix` with every drifted memory's repair accepted, as a user accepting each in turn. */
export async function fixAccepted(test: TestHost): Promise<void> {
  const report = await test.call('drift');
  await test.call('drift', { fix: true, ids: report.memories.map((m) => m.id) });
}

/** The report's entry for one memory; fails the test when the check left it out. */
export function memoryIn(report: DriftReport, id: string): MemoryDrift {
  const memory = report.memories.find((m) => m.id === id);
  assert.ok(memory, `memory ${id} not in the report: ${JSON.stringify(report.memories)}`);
  return memory;
}
