import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { needlesPattern } from '../../engine/drift/gitGrep';
import { openGit } from '../../engine/drift/gitHistory';
import { StoredHistory } from '../../engine/drift/historyStore';
import { WorkspaceSearch } from '../../engine/drift/workspaceSearch';
import { syntheticLockfile } from '../bench/drift/syntheticLockfile';
import { grammarsDirectory } from '../code/codeWorkspace';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { cliDrift, countingGit } from './countingGit';
import { rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const LATER_SCRIPT = '2025-02-10T12:00:00Z';
const AFTER_SCRIPT = '2025-02-20T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const MEMORY = 'Invoices call `computeTax()` in src/tax.js; `lockOnlyWord` formats them.';

/**
 * A 2 MB package-lock.json holding every word of the memory, a route and a word found nowhere
 * else: if a search read it, `lockOnlyWord` and `/lock-only` would be found.
 */
function lockfile(): string {
  const lock = JSON.parse(syntheticLockfile([MEMORY], 2)) as { packages: Record<string, unknown> };
  lock.packages['node_modules/lock-only'] = { description: "lockOnlyWord app.get('/lock-only', h)" };
  return JSON.stringify(lock, null, 2);
}

const manifest = (scripts: Record<string, string>) => JSON.stringify({ name: 'app', scripts }, null, 2);

function project(): { repo: GitRepository; change: string } {
  const repo = new GitRepository();
  repo.commit('initial', T1, {
    write: {
      'src/tax.js':
        'export function computeTax(amount) {\n  return amount * 0.2;\n}\nexport const rate = 1;\n',
      'src/server.js': "app.get('/health', health);\n",
      'package.json': manifest({ build: 'tsc', lint: 'eslint .' }),
    },
  });
  repo.commit('Add a check script', LATER_SCRIPT, {
    write: { 'package.json': manifest({ build: 'tsc', lint: 'eslint .', check: 'tsc --noEmit' }) },
  });
  const change = repo.commit('Drop computeTax and the scripts, add the lockfile', T2, {
    write: {
      'src/tax.js': 'export const rate = 1;\n',
      'package.json': manifest({ build: 'tsc' }),
      'package-lock.json': lockfile(),
    },
  });
  return { repo, change };
}

/** Runs `body` with a logging git first on PATH (read by openGit when it starts git). */
async function withGitOnPath<T>(dir: string, body: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${saved ?? ''}`;
  try {
    return await body();
  } finally {
    process.env.PATH = saved;
  }
}

describe('what a drift check reads and how often it asks git', () => {
  const { repo, change } = project();

  it('a first check never greps the lockfile, walks HEAD once for its timeline, reads files at commits in batches', async () => {
    const dbPath = path.join(tempDir(), 'memory.db');
    const setup = await openTestHost({
      dbPath,
      code: { root: repo.root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
    });
    await setup.call('scan', { tokens: false });
    await rememberAt(setup, MEMORY, BEFORE_CHANGE);
    // Two memories of two commits: package.json is read at each, and through its whole history.
    await rememberAt(setup, 'Run `npm run lint` before pushing.', BEFORE_CHANGE);
    await rememberAt(setup, 'Run `npm run check` before pushing.', AFTER_SCRIPT);
    await setup.host.close();
    const git = countingGit();
    const report = cliDrift(dbPath, repo.root, git.dir);
    const calls = git.calls();
    const claims = report.memories.flatMap((m) => m.claims);
    for (const subject of ['computeTax', 'lint', 'check']) {
      const claim = claims.find((c) => c.subject === subject);
      assert.equal(claim?.verdict, 'stale', `${subject}: ${JSON.stringify(claims)}`);
      assert.equal(claim?.evidence.commit?.hash, change, subject);
    }
    const greps = calls.filter((c) => c.startsWith('grep '));
    assert.ok(greps.length > 0, calls.join('\n'));
    for (const grep of greps) assert.ok(grep.includes(':(exclude,glob)**/package-lock.json'), grep);
    const walks = calls.filter((c) => /^log .*--format=%H %ct/.test(c));
    assert.equal(walks.length, 1, `one walk of HEAD's commits: ${walks.join('\n')}`);
    assert.equal(calls.filter((c) => c.startsWith('rev-parse')).length, 1, 'HEAD and shallow in one call');
    const reads = calls.filter((c) => c.startsWith('cat-file'));
    assert.equal(reads.length, 2, `package.json at two commits, then its versions: ${calls.join('\n')}`);
  });

  it('finds neither words nor routes in a lockfile, with git or without', async () => {
    const plain = tempDir('engram-drift-plain-');
    cpSync(repo.root, plain, { recursive: true });
    rmSync(path.join(plain, '.git'), { recursive: true });
    // Under the scanner's size limit (a 2 MB file is left out for its size alone).
    writeFileSync(
      path.join(plain, 'package-lock.json'),
      JSON.stringify({
        packages: { 'node_modules/lock-only': { description: "lockOnlyWord app.get('/lock-only', h)" } },
      }),
    );
    for (const [root, git] of [
      [repo.root, await openGit(repo.root, StoredHistory.empty(repo.root))],
      [plain, undefined],
    ] as const) {
      const label = git ? 'with git' : 'without git';
      const search = new WorkspaceSearch(root, git);
      const found = await search.find(['lockOnlyWord', 'computeTax', 'rate'], true);
      assert.deepEqual([...found.keys()], ['rate'], label);
      assert.deepEqual([...(await search.routes()).keys()], ['/health'], label);
    }
  });

  it('searches code for many needles in one git grep of one pattern', async () => {
    const git = countingGit();
    const needles = Array.from({ length: 300 }, (_, i) => `needle${i}`).concat('rate');
    const found = await withGitOnPath(git.dir, async () => {
      const search = new WorkspaceSearch(repo.root, await openGit(repo.root, StoredHistory.empty(repo.root)));
      return search.find(needles, true, 'code');
    });
    assert.deepEqual(
      [...found].map(([n, files]) => [n, [...files]]),
      [['rate', ['src/tax.js']]],
    );
    const greps = git.calls().filter((c) => c.startsWith('grep '));
    assert.equal(greps.length, 1, greps.join('\n'));
    assert.equal(greps[0]?.split(' -e ').length, 2, `one pattern: ${greps[0]?.slice(0, 300)}`);
  });
});

describe('the one pattern of many needles matches the lines fixed strings match', () => {
  const needles = [
    'a.b',
    '$scope',
    'end$',
    '--watch',
    'fn()',
    '[x]',
    'a|b',
    'C++',
    'back\\slash',
    'über',
    "it's",
    'two words',
    '^start',
    'plain',
    'x',
    '{y}',
  ];
  const lines = [
    'a.b and axb',
    'ya.bz',
    '$scope.x',
    'the$scope',
    'at the end$',
    'end$s',
    'run --watch now',
    'x--watch',
    'call fn() here',
    'afn()',
    'arr[x] [x]',
    'a|b c',
    'C++ and C+++',
    'back\\slash',
    'über alles; müber',
    "it's fine",
    'two words here; twowords',
    '^start of',
    'plainly plain',
    'x y x1 _x',
    '{y}{y}',
    'nothing at all',
    'allowHTTP1 and allow, allowing all; fallow',
    'axb xb ax',
  ];
  const repo = new GitRepository();
  writeFileSync(path.join(repo.root, 'lines.txt'), `${lines.join('\n')}\n`);
  repo.git('add', '-A');
  const grep = (args: string[]) =>
    spawnSync('git', ['grep', '-n', '-I', '--no-color', ...args, '--', 'lines.txt'], {
      cwd: repo.root,
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
    }).stdout;

  for (const wholeWord of [true, false])
    it(`${wholeWord ? 'as whole words (-w)' : 'anywhere'}`, () => {
      const fixed = grep(['-F', ...(wholeWord ? ['-w'] : []), ...needles.flatMap((n) => ['-e', n])]);
      assert.ok(fixed.split('\n').length > 10, fixed);
      assert.equal(grep(['-P', '-e', needlesPattern(needles, wholeWord)]), fixed);
    });

  // Text searches print each match (-o): where needles overlap (`all`, `allow`, `allowHTTP1`),
  // the one pattern must print what -F prints, the leftmost match and there the longest needle.
  for (const wholeWord of [true, false])
    it(`printing matches (-o) ${wholeWord ? 'as whole words' : 'anywhere'}, overlapping needles too`, () => {
      const overlapping = [...needles, 'all', 'allow', 'allowHTTP1', 'low', 'a.bz', 'ax', 'xb', 'plainly'];
      const fixed = grep([
        '-o',
        '-F',
        ...(wholeWord ? ['-w'] : []),
        ...overlapping.flatMap((n) => ['-e', n]),
      ]);
      assert.match(fixed, /allowHTTP1/);
      assert.equal(grep(['-o', '-P', '-e', needlesPattern(overlapping, wholeWord)]), fixed);
    });
});
