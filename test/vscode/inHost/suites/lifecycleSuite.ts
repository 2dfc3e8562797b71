import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConsolidationReport } from '../../../../extension/consolidationReport';
import { engramApi } from '../extensionApi';
import { eventually, test } from '../harness';

const DAY = 24 * 60 * 60 * 1000;
const TRIP = [
  'Ann booked the flight to Lisbon for the conference in March.',
  'The hotel near the Lisbon venue costs 140 euros a night.',
  'The Lisbon conference badge pickup opens at eight in the morning.',
];

test('Consolidate Now merges a faded session into a summary; Undo brings its members back', async () => {
  const api = await engramApi();
  const members: string[] = [];
  for (const content of TRIP)
    members.push(
      (
        await api.engine.call('remember', {
          content,
          layer: 'episodic',
          dedupe: false,
          // Sixty days: faded below half (a session's gist), not yet old enough to archive.
          validFrom: Date.now() - 60 * DAY,
          actor: { session: 'lisbon-trip' },
        })
      ).memory.id,
    );
  const status = async (id: string) => (await api.engine.call('get', { id, readOnly: true })).memory.status;

  const done = await vscode.commands.executeCommand<ConsolidationReport>('engram.consolidateNow', 'apply');
  assert.equal(done.dryRun, false);
  assert.equal(done.consolidation.created.length, 1, JSON.stringify(done.consolidation.clusters));
  const [summary] = done.consolidation.created;
  assert.deepEqual([...done.consolidation.clusters[0]!.members].sort(), [...members].sort());
  for (const id of members) assert.equal(await status(id), 'superseded', id);
  const recalled = async () =>
    // `detail: false`: the consolidated memories themselves (by default recall opens a summary
    // onto its members, kept in history, when they rank above it).
    (
      await api.engine.call('recall', {
        query: 'Lisbon hotel flight badge',
        k: 10,
        readOnly: true,
        detail: false,
      })
    ).hits.map((h) => h.memory.id);
  const after = await recalled();
  assert.ok(after.includes(summary!), 'the summary is recalled');
  assert.ok(!members.some((id) => after.includes(id)), 'its members are out of recall');

  const undone = await vscode.commands.executeCommand<{ restored: string[] }>(
    'engram.undoConsolidation',
    done,
  );
  assert.deepEqual([...undone.restored].sort(), [...members].sort());
  for (const id of members) assert.equal(await status(id), 'active', id);
  assert.equal(await status(summary!), 'superseded');
  const back = await recalled();
  assert.ok(
    members.every((id) => back.includes(id)),
    'the members are recalled again',
  );
  assert.ok(!back.includes(summary!), 'the summary is not');
});

test('engram.lifecycle settings reach the engine without a reload and change what is archived', async () => {
  const api = await engramApi();
  const config = () => vscode.workspace.getConfiguration('engram.lifecycle');
  const faded = await api.engine.call('remember', {
    content: 'The coffee machine on the third floor was broken on Tuesday.',
    layer: 'episodic',
    importance: 0,
    // 75 days: retention 0 by now, younger than the seeds' 90 days.
    validFrom: Date.now() - 75 * DAY,
    actor: { agent: 'lifecycle-test-agent' },
  });
  const archived = async () =>
    (await api.engine.call('lifecycle', { dryRun: true })).archived.map((a) => a.memoryId);
  assert.equal((await api.engine.call('lifecycleSettings', {})).archiveAfterDays, 90);
  assert.ok(!(await archived()).includes(faded.memory.id), 'the seeds: not before 90 days');

  await config().update('archiveAfterDays', 30, vscode.ConfigurationTarget.Workspace);
  await eventually(
    'the engine to take archiveAfterDays 30',
    async () => (await api.engine.call('lifecycleSettings', {})).archiveAfterDays === 30 || undefined,
  );
  assert.ok((await archived()).includes(faded.memory.id), 'archived after 30 days');

  // A wrong value changes nothing (the engine refuses the whole set; the user sees which one).
  await config().update('halfLifeDays', 0, vscode.ConfigurationTarget.Workspace);
  await config().update('kappa', 3, vscode.ConfigurationTarget.Workspace);
  const settings = await api.engine.call('lifecycleSettings', {});
  assert.deepEqual([settings.halfLifeDays, settings.kappa, settings.archiveAfterDays], [30, 2, 30]);

  await config().update('halfLifeDays', undefined, vscode.ConfigurationTarget.Workspace);
  await eventually(
    'the engine to take kappa 3 once the half-life is fixed',
    async () => (await api.engine.call('lifecycleSettings', {})).kappa === 3 || undefined,
  );
  for (const key of ['archiveAfterDays', 'kappa'])
    await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  await eventually(
    'the defaults back',
    async () => (await api.engine.call('lifecycleSettings', {})).archiveAfterDays === 90 || undefined,
  );
  assert.ok(!(await archived()).includes(faded.memory.id));
});
