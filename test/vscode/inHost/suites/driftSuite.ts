import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RememberResult } from '../../../../engine/memory/types';
import type { DriftReport } from '../../../../extension/driftReport';
import type {
  DriftDecision,
  DriftReviewOutcome,
  DriftReviewStep,
} from '../../../../extension/commands/driftReview';
import { DriftTreeProvider } from '../../../../extension/views/driftTree';
import { EXTENSION_ID, engramApi, workspacePath } from '../extensionApi';
import { eventually, test } from '../harness';
import { memoryRowOf } from '../memoryRows';

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Engram Test', '-c', 'user.email=test@engram.invalid', ...args], {
    cwd: workspacePath(),
    stdio: 'ignore',
  });

/**
 * Commits once the clock is past the second the memories were written in: git dates commits to the
 * second, and the checker blames a commit only when it is after the memory (a commit in the same
 * second reads as "already gone before the memory was written").
 */
async function commitAfterMemories(message: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
  git('commit', '-q', '-m', message);
}

/** Writes files of a test's own under src/<folder> and commits them (later suites use the fixture's). */
function commitFiles(folder: string, files: Record<string, string>, message: string): void {
  mkdirSync(path.join(workspacePath(), 'src', folder), { recursive: true });
  for (const [name, text] of Object.entries(files))
    writeFileSync(path.join(workspacePath(), 'src', folder, name), text);
  git('add', `src/${folder}`);
  git('commit', '-q', '-m', message);
}

let movedMemory = '';

test('Check Drift finds a memory whose file was renamed in git, with the commit, and the views show it', async () => {
  const api = await engramApi();
  const note = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'The crypto helpers live in src/crypto/hash.ts',
    'fact',
  );
  movedMemory = note.memory.id;
  git('mv', 'src/crypto/hash.ts', 'src/crypto/digest.ts');
  await commitAfterMemories('Rename hash.ts to digest.ts');
  await vscode.commands.executeCommand('engram.scanWorkspace');
  const report = await vscode.commands.executeCommand<DriftReport>('engram.checkDrift');
  const finding = report.findings.find((f) => f.memoryId === movedMemory);
  assert.ok(finding, `the renamed file's memory drifted: ${JSON.stringify(report.findings)}`);
  assert.equal(finding.evidence.target, 'src/crypto/digest.ts');
  assert.match(finding.evidence.message ?? '', /Rename hash.ts/);
  assert.ok(api.drift.isStale(movedMemory));
  const row = (await memoryRowOf(api, movedMemory))?.row;
  assert.ok(row);
  // In words: since which commit it is stale (short hash), and no id in the row.
  const description = String(api.memories.getTreeItem(row).description);
  assert.match(description, new RegExp(`^stale since ${finding.evidence.commit?.slice(0, 7)} · fact · `));
  assert.ok(!description.includes(movedMemory.slice(0, 8)), description);
  // The status bar counts what the Drift view lists, in words for a screen reader too.
  const stale = api.drift.last?.findings.length ?? 0;
  assert.ok(stale > 0);
  assert.match(api.statusBar.text, new RegExp(`\\$\\(warning\\) ${stale} stale$`));
  assert.match(api.statusBar.accessibilityLabel ?? '', new RegExp(`${stale} stale memor(y|ies)$`));
});

test('Fix Drift rewrites the moved path in a new version of the memory', async () => {
  const api = await engramApi();
  await vscode.commands.executeCommand('engram.fixDrift', undefined, 'apply');
  const { memory } = await api.engine.call('get', { id: movedMemory });
  assert.match(memory.content, /src\/crypto\/digest\.ts/);
  assert.ok(memory.version > 1, 'the old wording stays in the history');
  assert.equal(api.drift.isStale(movedMemory), false);
});

/** The diff tabs the drift review shows its rewrites in (generated documents, engram-view:). */
const driftDiffTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'engram-view');

let skippedMemory = '';

test('Fix Drift reviews memory by memory: only the accepted one changes, and no diff tab stays open', async () => {
  const api = await engramApi();
  // Files of their own: later suites open the fixture's src/auth/login.ts.
  commitFiles(
    'billing',
    { 'invoice.ts': 'export const invoice = 1;\n', 'taxRates.ts': 'export const rates = [];\n' },
    'Add billing',
  );
  const human = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'Invoices are built in src/billing/invoice.ts',
    'fact',
  );
  // An agent's memory: a plain fix would repair it without asking, a review must not when skipped.
  const agent = await api.engine.call(
    'remember',
    { content: 'Tax rates are looked up in src/billing/taxRates.ts', kind: 'fact' },
    { agent: 'drift-review-test' },
  );
  skippedMemory = agent.memory.id;
  git('mv', 'src/billing/invoice.ts', 'src/billing/invoices.ts');
  git('mv', 'src/billing/taxRates.ts', 'src/billing/rates.ts');
  await commitAfterMemories('Rename the billing files');
  await vscode.commands.executeCommand('engram.scanWorkspace');
  const agentBefore = await api.engine.call('history', { id: skippedMemory });
  const asked: Array<{ id: string; change: string; diffOpen: boolean }> = [];
  const decide = (step: DriftReviewStep): DriftDecision => {
    const { memoryId } = step.proposal;
    asked.push({
      id: memoryId,
      change: step.proposal.change,
      diffOpen: driftDiffTabs().some(
        (t) => (t.input as vscode.TabInputTextDiff).modified.path.includes(memoryId) && t.isActive,
      ),
    });
    return memoryId === human.memory.id ? 'accept' : 'skip';
  };
  const outcome = await vscode.commands.executeCommand<DriftReviewOutcome>(
    'engram.fixDrift',
    undefined,
    decide,
  );
  const ours = asked.filter((a) => a.id === human.memory.id || a.id === skippedMemory);
  assert.deepEqual(
    ours.map(({ change, diffOpen }) => ({ change, diffOpen })),
    [
      { change: 'rewrite', diffOpen: true },
      { change: 'rewrite', diffOpen: true },
    ],
    `each memory was asked about once, with its diff in front: ${JSON.stringify(asked)}`,
  );
  assert.deepEqual(outcome.accepted, [human.memory.id]);
  assert.ok(outcome.skipped.includes(skippedMemory));
  const { memory: fixed } = await api.engine.call('get', { id: human.memory.id });
  assert.match(fixed.content, /src\/billing\/invoices\.ts/, 'the accepted human memory was rewritten');
  assert.equal(fixed.version, human.memory.version + 1);
  const agentAfter = await api.engine.call('history', { id: skippedMemory });
  assert.deepEqual(agentAfter, agentBefore, 'the skipped memory has no new version and no annotation');
  assert.deepEqual(driftDiffTabs(), [], 'the review closed its diff tabs');
  assert.equal(api.drift.isStale(human.memory.id), false);
  assert.equal(api.drift.isStale(skippedMemory), true);
});

test("The Drift view's Fix… reviews just that row's memory and repairs it once accepted", async () => {
  const api = await engramApi();
  const tree = new DriftTreeProvider(api.drift);
  const row = tree.getChildren().find((n) => n.type === 'finding' && n.finding.memoryId === skippedMemory);
  assert.ok(row, 'the skipped memory is still a row of the Drift view');
  const contextValue = tree.getTreeItem(row).contextValue;
  tree.dispose();
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
    contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
  };
  const menu = manifest.contributes.menus['view/item/context']?.filter(
    (m) => m.command === 'engram.fixDriftMemory',
  );
  assert.ok(menu?.length, 'Fix… is in the Drift view items menu');
  for (const m of menu)
    assert.ok(m.when?.includes(`viewItem == ${contextValue}`), `${m.when} offers Fix… on the row`);
  const asked: string[] = [];
  const outcome = await vscode.commands.executeCommand<DriftReviewOutcome>(
    'engram.fixDriftMemory',
    row,
    (step: DriftReviewStep) => {
      asked.push(step.proposal.memoryId);
      return 'accept';
    },
  );
  assert.deepEqual(asked, [skippedMemory], 'only that memory was reviewed');
  assert.deepEqual(outcome.accepted, [skippedMemory]);
  const { memory } = await api.engine.call('get', { id: skippedMemory });
  assert.match(memory.content, /src\/billing\/rates\.ts/);
  assert.deepEqual(driftDiffTabs(), []);
});

test('"Accept all remaining" never changes a person\'s memory unseen: a confirmation names it first', async () => {
  const api = await engramApi();
  commitFiles(
    'shipping',
    { 'carrier.ts': 'export const carrier = 1;\n', 'parcel.ts': 'export const parcel = 1;\n' },
    'Add shipping',
  );
  const notes = await Promise.all(
    ['Carriers are chosen in src/shipping/carrier.ts', 'Parcels are weighed in src/shipping/parcel.ts'].map(
      (text) => vscode.commands.executeCommand<RememberResult>('engram.rememberNote', text, 'fact'),
    ),
  );
  const ours = notes.map((n) => n.memory.id);
  git('mv', 'src/shipping/carrier.ts', 'src/shipping/carriers.ts');
  git('mv', 'src/shipping/parcel.ts', 'src/shipping/parcels.ts');
  await commitAfterMemories('Rename the shipping files');
  await vscode.commands.executeCommand('engram.scanWorkspace');
  const shown: string[] = [];
  const named: string[] = [];
  const outcome = await vscode.commands.executeCommand<DriftReviewOutcome>('engram.fixDrift', undefined, {
    // The first of ours shown is accepted with "Accept all remaining"; anything else is skipped.
    decide: (step: DriftReviewStep): DriftDecision => {
      if (!ours.includes(step.proposal.memoryId)) return 'skip';
      shown.push(step.proposal.memoryId);
      return 'acceptRest';
    },
    consent: (unseen: Array<{ proposal: { memoryId: string }; title: string }>) => {
      named.push(...unseen.map((u) => u.title));
      return false;
    },
  });
  assert.equal(shown.length, 1, 'one of the two was shown');
  const [seen] = shown;
  const unseen = ours.find((id) => id !== seen)!;
  const unseenNote = notes.find((n) => n.memory.id === unseen)!;
  assert.ok(named.includes(unseenNote.memory.content), `the confirmation named it: ${JSON.stringify(named)}`);
  assert.ok(!named.includes(notes.find((n) => n.memory.id === seen)!.memory.content), 'not the one shown');
  assert.ok(outcome.accepted.includes(seen!));
  assert.ok(outcome.skipped.includes(unseen), 'refused consent leaves it');
  const after = (await api.engine.call('get', { id: unseen })).memory;
  assert.equal(after.version, unseenNote.memory.version, 'the unseen human memory was not rewritten');
  assert.equal(after.content, unseenNote.memory.content);
  assert.match(
    (await api.engine.call('get', { id: seen! })).memory.content,
    /src\/shipping\/(carriers|parcels)\.ts/,
  );
  assert.deepEqual(driftDiffTabs(), []);
});

test('a rename committed in git shows as drift in the status bar without Check Drift (live)', async () => {
  const api = await engramApi();
  commitFiles('clock', { 'ticks.ts': 'export const ticks = 1;\n' }, 'Add the clock');
  const note = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'The tick counter lives in src/clock/ticks.ts',
    'fact',
  );
  // Every engine call from here on: the rescan brings its drift along, no second call (issue 15).
  const calls: string[] = [];
  const call = api.engine.call.bind(api.engine);
  api.engine.call = (method, params, actor) => {
    calls.push(method);
    return call(method, params, actor);
  };
  try {
    git('mv', 'src/clock/ticks.ts', 'src/clock/counter.ts');
    await commitAfterMemories('Rename ticks.ts to counter.ts');
    // No Check Drift: the file watcher's rescan re-checks the memories naming the renamed paths,
    // and the status bar follows the same drift state the Drift view shows (issue 19 item 5).
    await eventually('the live drift check to find the renamed file', () =>
      api.drift.isStale(note.memory.id),
    );
  } finally {
    Reflect.deleteProperty(api.engine, 'call'); // the class's own method again
  }
  assert.ok(calls.includes('scan'), calls.join(', '));
  assert.ok(!calls.includes('drift'), `no drift call after a scan: ${calls.join(', ')}`);
  const stale = await eventually('the status bar to count it', () => {
    const count = api.drift.last?.findings.length ?? 0;
    return count > 0 && new RegExp(`\\$\\(warning\\) ${count} stale$`).test(api.statusBar.text)
      ? count
      : undefined;
  });
  assert.match(api.statusBar.accessibilityLabel ?? '', new RegExp(`${stale} stale memor(y|ies)$`));
});
