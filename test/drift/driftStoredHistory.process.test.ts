import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { DriftReport } from '../../engine/drift/driftReport';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { grammarsDirectory } from '../code/codeWorkspace';
import { cliDrift, countingGit } from './countingGit';
import { rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const COMMIT_RE = /\b[0-9a-f]{40}\b/;

/** What a report says about each memory (in the order of their ids), without its timing. */
function verdicts(report: DriftReport) {
  const memories = [...report.memories].sort((a, b) => a.id.localeCompare(b.id));
  return memories.map((m) => ({
    id: m.id,
    status: m.status,
    claims: m.claims.map((c) => [c.kind, c.subject, c.verdict, c.evidence.reason, c.evidence.commit?.hash]),
  }));
}

describe('drift history stored in the database', () => {
  it('a re-check from a new process asks git only what changed, and a moved HEAD reuses answers about old commits', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'src/config.ts': 'export const port = 1;\n',
        'src/tax.ts':
          'export function computeTax(amount) {\n  return amount * 0.2;\n}\nexport const rate = 1;\n',
        'package.json': JSON.stringify({ name: 'app', scripts: { build: 'tsc', lint: 'eslint .' } }, null, 2),
      },
    });
    repo.commit('unrelated', '2025-02-15T00:00:00Z', { write: { 'README.md': 'hello\n' } });
    const change = repo.commit('Drop config, computeTax and lint', T2, {
      remove: ['src/config.ts'],
      write: {
        'src/tax.ts': 'export const rate = 1;\n',
        'package.json': JSON.stringify({ name: 'app', scripts: { build: 'tsc' } }, null, 2),
      },
    });
    const dbPath = path.join(tempDir(), 'memory.db');
    const setup = await openTestHost({
      dbPath,
      code: { root: repo.root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
    });
    await setup.call('scan', { tokens: false });
    await rememberAt(setup, 'The port is set in src/config.ts', BEFORE_CHANGE);
    await rememberAt(setup, 'Invoices call `computeTax()` in src/tax.ts', BEFORE_CHANGE);
    await rememberAt(setup, 'Run `npm run lint` before pushing; `npm run build` makes dist.', BEFORE_CHANGE);
    await setup.host.close();
    const git = countingGit();

    const first = cliDrift(dbPath, repo.root, git.dir);
    const firstCalls = git.calls();
    const stale = verdicts(first).flatMap((m) => m.claims.filter((c) => c[2] === 'stale'));
    assert.equal(stale.length, 3, JSON.stringify(verdicts(first)));
    for (const claim of stale) assert.equal(claim[4], change, `attributed: ${JSON.stringify(claim)}`);
    const commitGreps = firstCalls.filter((c) => c.startsWith('grep ') && COMMIT_RE.test(c));
    assert.ok(commitGreps.length > 0, `greps at commits: ${firstCalls.join('\n')}`);
    assert.ok(
      firstCalls.some((c) => / log .*-S/.test(` ${c}`)),
      'a pickaxe walk',
    );

    git.reset();
    const again = cliDrift(dbPath, repo.root, git.dir);
    const againCalls = git.calls();
    assert.deepEqual(verdicts(again), verdicts(first));
    // Left: finding HEAD, whether the clone is shallow, and searches of the working tree.
    assert.ok(
      againCalls.length * 2 < firstCalls.length,
      `re-check: ${againCalls.length} git calls, first: ${firstCalls.length}\n${againCalls.join('\n')}`,
    );
    assert.deepEqual(
      // (ls-files lists untracked files too large to search: the working tree, not history.)
      againCalls.filter(
        (c) => !c.startsWith('rev-parse') && !c.includes('--untracked') && !c.includes('ls-files'),
      ),
      [],
      'nothing but HEAD and the working tree is asked again',
    );

    // HEAD moves: answers about HEAD's history are asked again, greps at old commits are not.
    repo.commit('later work', '2025-04-01T00:00:00Z', { write: { 'docs/notes.md': 'notes\n' } });
    git.reset();
    const moved = cliDrift(dbPath, repo.root, git.dir);
    const movedCalls = git.calls();
    assert.deepEqual(verdicts(moved), verdicts(first));
    assert.ok(
      movedCalls.some((c) => c.includes('--diff-filter=DR')),
      'path events of the new HEAD',
    );
    assert.ok(
      movedCalls.some((c) => / log .*-S/.test(` ${c}`)),
      'the walk to the new HEAD',
    );
    const repeated = movedCalls.filter((c) => commitGreps.includes(c));
    assert.deepEqual(repeated, [], 'greps at old commits come from the database');

    // Answers of the old HEAD are dropped; those keyed by commits alone stay.
    const after = await openTestHost({ dbPath });
    const heads = after.host.store.read((r) =>
      r.all<{ head: string | null; n: number }>(
        'SELECT head, COUNT(*) AS n FROM drift_history GROUP BY head ORDER BY head',
      ),
    );
    await after.host.close();
    assert.equal(heads.length, 2, JSON.stringify(heads));
    assert.equal(heads[0]?.head, null);
    assert.equal(heads[1]?.head, moved.history.head);
  });
});

describe('drift history answers that are not plain JSON', () => {
  it('a section link re-checked from a new process reads the stored sections as the first check found them', async () => {
    const repo = new GitRepository();
    const guide = '# Guide\n\n## Install\n\nText.\n\n## Notifications\n\nMore.\n';
    repo.commit('initial', T1, { write: { 'docs/guide.md': guide, 'index.js': 'module.exports = 1;\n' } });
    const removing = repo.commit('Drop notifications', T2, {
      write: { 'docs/guide.md': guide.replace('## Notifications\n\nMore.\n', '') },
    });
    const dbPath = path.join(tempDir(), 'memory.db');
    const setup = await openTestHost({
      dbPath,
      code: { root: repo.root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
    });
    await setup.call('scan', { tokens: false });
    await setup.call('remember', {
      content: 'See [install](#install) and [notifications](#notifications).',
      validFrom: BEFORE_CHANGE,
      source: { file: 'docs/guide.md' },
      dedupe: false,
    });
    await setup.host.close();
    const git = countingGit();
    const first = cliDrift(dbPath, repo.root, git.dir);
    const gone = first.memories[0]?.claims.find((c) => c.subject === '#notifications');
    assert.equal(gone?.verdict, 'stale', JSON.stringify(verdicts(first)));
    assert.equal(gone?.evidence.commit?.hash, removing);
    // The sections of each version come back from the database (a Set, which JSON has not).
    assert.deepEqual(verdicts(cliDrift(dbPath, repo.root, git.dir)), verdicts(first));
  });
});
