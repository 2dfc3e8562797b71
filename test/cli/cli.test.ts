import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { GitRepository } from '../drift/gitRepository';
import { tempDir } from '../support/temp';
import { WITH_MODEL, engram } from './engramCli';

describe('engram CLI', () => {
  it('remembers and recalls in a fresh database in the current folder, with a .gitignore', async () => {
    const dir = tempDir();
    const remembered = await engram(
      dir,
      ['remember', 'The', 'CI', 'runs', 'on', 'GitHub', 'Actions', '--tags', 'ci,infra'],
      WITH_MODEL,
    );
    assert.equal(remembered.code, 0, remembered.err);
    assert.match(remembered.out, /^remembered: m_\w+ {2}semantic\/fact {2}The CI runs on GitHub Actions/);
    assert.ok(existsSync(path.join(dir, '.engram', 'memory.db')));
    // Everything of .engram/ stays out of git but the team memories (docs/team.md).
    assert.deepEqual(
      readFileSync(path.join(dir, '.engram', '.gitignore'), 'utf8')
        .trim()
        .split('\n')
        .slice(-2),
      ['/*', '!/team/'],
    );
    const recalled = await engram(dir, ['recall', 'which CI do we use?'], WITH_MODEL);
    assert.equal(recalled.code, 0, recalled.err);
    assert.match(recalled.out, /The CI runs on GitHub Actions/);
  });

  it('answers the read commands in text: as-of, entities and a token-bounded context', async () => {
    const dir = tempDir();
    const before = new Date(Date.now() - 60_000).toISOString();
    assert.equal((await engram(dir, ['remember', 'Deploys go through Kubernetes on Fridays'])).code, 0);
    assert.equal((await engram(dir, ['remember', 'Postgres holds the billing tables', '--pin'])).code, 0);
    assert.match((await engram(dir, ['as-of', before])).out, /^\(none\)/);
    const now = await engram(dir, ['as-of', new Date(Date.now() + 60_000).toISOString()]);
    assert.equal(now.code, 0, now.err);
    assert.match(now.out, /Kubernetes on Fridays/);
    assert.match(now.out, /billing tables/);
    assert.match((await engram(dir, ['entities'])).out, /Kubernetes {2}\(tool, 1 memories\)/);
    const context = await engram(dir, ['context', 'where do deploys run?', '--budget', '200']);
    assert.equal(context.code, 0, context.err);
    assert.match(context.out, /billing tables[\s\S]*Kubernetes on Fridays/);
    assert.match(context.out, /\(\d+ of 200 tokens; 0 skipped\)/);
    const bad = await engram(dir, ['as-of', 'yesterday-ish']);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /time/);
  });

  it('finds the workspace database from a subfolder', async () => {
    const dir = tempDir();
    await engram(dir, ['remember', 'root memory']);
    const sub = path.join(dir, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const listed = await engram(sub, ['list']);
    assert.match(listed.out, /root memory/);
  });

  it('prints one JSON document with --json and walks the whole lifecycle', async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'x.db'), '--json'];
    const added = JSON.parse(
      (
        await engram(dir, [
          ...db,
          'remember',
          'Tabs, not spaces',
          '--kind',
          'preference',
          '--importance',
          '0.9',
        ])
      ).out,
    ) as {
      memory: { id: string; kind: string; importance: number };
    };
    assert.equal(added.memory.kind, 'preference');
    assert.equal(added.memory.importance, 0.9);
    const id = added.memory.id;
    for (const args of [
      ['edit', id, 'Spaces, not tabs'],
      ['annotate', id, 'per the style guide'],
      ['pin', id],
      ['unpin', id],
      ['forget', id],
      ['restore', id],
      ['invalidate', id, '--reason', 'moot'],
    ]) {
      const result = await engram(dir, [...db, ...args]);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.err}`);
      JSON.parse(result.out);
    }
    const history = JSON.parse((await engram(dir, [...db, 'history', id])).out) as {
      versions: Array<{ change: string }>;
      annotations: unknown[];
    };
    assert.deepEqual(
      history.versions.map((v) => v.change),
      ['created', 'edited', 'forgotten', 'restored', 'invalidated'],
    );
    assert.equal(history.annotations.length, 1);
    const stats = JSON.parse((await engram(dir, [...db, 'stats'])).out) as { versions: number };
    assert.equal(stats.versions, 5);
  });

  it('exits 1 with a one-line message on bad input and changes nothing', async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'x.db')];
    for (const args of [
      ['remember', ' '],
      ['remember', 'x', '--layer', 'cortex'],
      ['remember', 'x', '--importance', 'lots'],
      ['--embedding', 'word2vec', 'remember', 'x'],
      ['frobnicate'],
    ]) {
      const result = await engram(dir, [...db, ...args]);
      assert.equal(result.code, 1, `${args.join(' ')} -> ${result.code}: ${result.err}`);
      assert.ok(result.err.trim().length > 0);
    }
    const empty = await engram(dir, [...db, 'remember', '   ']);
    assert.equal(empty.err.trim().split('\n')[0], 'engram: content must not be empty');
    assert.match((await engram(dir, [...db, 'list'])).out, /^0 of 0/);
  });

  // A stalled analysis of the query fails on the timeout.
  it(
    'refuses a query past the limit with one line, at once, for recall and context',
    { timeout: 20_000 },
    async () => {
      const dir = tempDir();
      const db = ['--db', path.join(dir, 'x.db')];
      // 1 MB in 1,000-character words: one argument may not exceed 128 KB.
      const words = Array.from({ length: 1000 }, () => 'a'.repeat(999));
      for (const command of ['recall', 'context']) {
        const result = await engram(dir, [...db, command, ...words]);
        assert.equal(result.code, 1, `${command} -> ${result.code}: ${result.err}`);
        assert.equal(result.err, 'engram: query is 999999 characters; the limit is 4000\n');
      }
    },
  );

  it('exits 2 for an unknown id and 3 for a damaged database', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'x.db');
    await engram(dir, ['--db', file, 'remember', 'something']);
    const missing = await engram(dir, ['--db', file, 'get', 'm_00000000000000000000']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^engram: no memory with id "m_00000000000000000000"\n$/);
    writeFileSync(file, Buffer.alloc(4096, 9));
    const broken = await engram(dir, ['--db', file, 'list']);
    assert.equal(broken.code, 3);
    assert.match(broken.err, /is not an SQLite file/);
    assert.match(broken.err, /engram recover/);
    // No previous snapshot exists yet for a one-write database: the journal alone rebuilds it.
    const recovered = await engram(dir, ['--db', file, 'recover']);
    assert.equal(recovered.code, 0, recovered.err);
    assert.match((await engram(dir, ['--db', file, 'list'])).out, /something/);
  });

  it('exports and imports between databases, including MCP memory files', async () => {
    const dir = tempDir();
    const a = ['--db', path.join(dir, 'a.db')];
    const b = ['--db', path.join(dir, 'b.db')];
    await engram(dir, [...a, 'remember', 'Melanie owns the release process']);
    assert.equal((await engram(dir, [...a, 'export', 'out.jsonl'])).code, 0);
    const imported = await engram(dir, [...b, 'import', 'out.jsonl']);
    assert.equal(imported.code, 0, imported.err);
    assert.match((await engram(dir, [...b, 'list'])).out, /Melanie owns the release process/);
    writeFileSync(
      path.join(dir, 'memory.jsonl'),
      JSON.stringify({
        type: 'entity',
        name: 'Nate',
        entityType: 'person',
        observations: ['Likes turtles'],
      }) + '\n',
    );
    assert.equal((await engram(dir, [...b, 'import', 'memory.jsonl', '--from', 'mcp-memory'])).code, 0);
    assert.match((await engram(dir, [...b, 'related', 'Nate'])).out, /Likes turtles/);
    const md = await engram(dir, [...b, 'export', '--format', 'md']);
    assert.match(md.out, /^# Engram memories/);
    const bad = await engram(dir, [...b, 'import', 'memory.jsonl']);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /not an Engram export/);
  });

  it('imports an MCP memory file with one line per rejected observation and a summary; exits 1 only when all were rejected', async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'memory.db')];
    const entity = (name: string, observations: string[]) =>
      JSON.stringify({ type: 'entity', name, entityType: 'person', observations });
    writeFileSync(
      path.join(dir, 'memory.jsonl'),
      [entity('Nate', ['Likes turtles', '', 'Plays chess']), entity('Ola', ['  '])].join('\n'),
    );
    const partial = await engram(dir, [...db, 'import', 'memory.jsonl', '--from', 'mcp-memory']);
    assert.equal(partial.code, 0, partial.err);
    assert.equal(
      partial.out,
      'rejected: observation 2 of "Nate": content must not be empty\n' +
        'rejected: observation 1 of "Ola": content must not be empty\n' +
        'imported 2 of 4 observations as memories (0 already here); 2 rejected; 2 entities, 0 relations\n',
    );
    assert.match((await engram(dir, [...db, 'related', 'Nate'])).out, /Plays chess/);

    writeFileSync(path.join(dir, 'empty.jsonl'), entity('Pia', ['', ' ']));
    const none = await engram(dir, [...db, '--json', 'import', 'empty.jsonl', '--from', 'mcp-memory']);
    assert.equal(none.code, 1);
    const answer = JSON.parse(none.out) as { observations: number; rejected: Array<{ observation: number }> };
    assert.equal(answer.observations, 0);
    assert.deepEqual(
      answer.rejected.map((r) => r.observation),
      [0, 1],
    );
  });

  it('keeps user-level memories apart from the workspace', async () => {
    const dir = tempDir();
    await engram(dir, ['--user', 'remember', 'I prefer concise answers', '--kind', 'preference']);
    await engram(dir, ['remember', 'workspace fact']);
    assert.match((await engram(dir, ['--user', 'list'])).out, /I prefer concise answers/);
    assert.doesNotMatch((await engram(dir, ['list'])).out, /concise/);
    assert.ok(existsSync(path.join(dir, 'user-home', 'user.db')));
  });

  it('keeps notes that differ in a number apart, and names the memory a restatement merged into', async () => {
    const dir = tempDir();
    const first = await engram(dir, ['remember', 'writer 1 note 1'], WITH_MODEL);
    const second = await engram(dir, ['remember', 'writer 1 note 2'], WITH_MODEL);
    assert.equal(second.code, 0, second.err);
    assert.match(first.out, /^remembered: m_\w+ {2}semantic\/fact {2}writer 1 note 1\n$/);
    assert.match(second.out, /^remembered: m_\w+ {2}semantic\/fact {2}writer 1 note 2\n$/);
    const id = /^remembered: (m_\w+)/.exec(
      (await engram(dir, ['remember', 'Use pnpm for installs.'], WITH_MODEL)).out,
    )?.[1];
    const merged = await engram(dir, ['remember', 'Use pnpm for installs'], WITH_MODEL);
    assert.equal(merged.code, 0, merged.err);
    assert.match(
      merged.out,
      /^updated a near-duplicate \(similarity 0\.\d\d\): m_\w+ {2}semantic\/fact {2}Use pnpm for installs\n/,
    );
    assert.ok(
      merged.out.includes(`merged into ${id}, replacing "Use pnpm for installs." (restatement: similarity `),
      merged.out,
    );
  });

  it('scan prints the drift of the memories naming changed files, or that there is none', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-10T12:00:00Z', {
      write: { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' },
    });
    const db = ['--db', path.join(repo.root, 'x.db')];
    const remember = await engram(repo.root, [
      ...db,
      '--json',
      'remember',
      'A is set in src/a.ts',
      '--valid-from',
      '2025-02-01T00:00:00Z',
    ]);
    const id = (JSON.parse(remember.out) as { memory: { id: string } }).memory.id;
    const first = await engram(repo.root, [...db, 'scan', '--no-tokens']);
    assert.equal(first.code, 0, first.err);
    repo.commit('Touch b', '2025-03-01T12:00:00Z', { write: { 'src/b.ts': 'export const b = 2;\n' } });
    const quiet = await engram(repo.root, [...db, 'scan', '--no-tokens']);
    assert.match(quiet.out, /^no drift in the changed files$/m);

    repo.commit('Rename a to alpha', '2025-03-02T12:00:00Z', { rename: [['src/a.ts', 'src/alpha.ts']] });
    const scan = await engram(repo.root, [...db, 'scan', '--no-tokens']);
    assert.equal(scan.code, 0, scan.err);
    const drifted = scan.out.split('\n').filter((line) => line.startsWith('drift: '));
    assert.equal(drifted.length, 1, scan.out);
    assert.match(drifted[0] ?? '', new RegExp(`^drift: MOVED ${id} .*src/a\\.ts -> src/alpha\\.ts`));
  });

  it('explains a memory and plans the lifecycle without changing anything', async () => {
    const dir = tempDir();
    const remembered = await engram(dir, [
      'remember',
      'Deploys',
      'go',
      'out',
      'on',
      'Fridays',
      '--layer',
      'episodic',
    ]);
    const id = /^remembered: (m_\w+)/.exec(remembered.out)?.[1] ?? '';
    const explained = await engram(dir, ['explain', id]);
    assert.equal(explained.code, 0, explained.err);
    assert.match(explained.out, new RegExp(`^${id} \\(episodic, written by human, active\\)`));
    assert.match(explained.out, /^ {2}sourceTrust {6}1\.000 x 0\.10 = 0\.100$/m);
    assert.match(explained.out, /^archive: kept \(0 of 90 days old/m);
    const planned = await engram(dir, ['lifecycle']);
    assert.equal(planned.code, 0, planned.err);
    assert.equal(
      planned.out,
      'would promote 0\nconsidered 0 old, rarely recalled episodes; would archive 0\n',
    );
    const bad = await engram(dir, ['explain', 'm_nosuchmemory']);
    assert.notEqual(bad.code, 0);
    assert.equal(bad.err.trim().split('\n').length, 1, bad.err);
  });

  it('consolidates faded episodes, recalls their detail and undoes the consolidation', async () => {
    const dir = tempDir();
    const longAgo = new Date(Date.now() - 200 * 24 * 60 * 60 * 1000).toISOString();
    const ids: string[] = [];
    for (const text of ['Ann booked the flight to Lisbon.', 'The Lisbon hotel costs 140 euros a night.']) {
      const made = await engram(dir, [
        '--session',
        'trip',
        'remember',
        text,
        '--layer',
        'episodic',
        '--valid-from',
        longAgo,
      ]);
      ids.push(/^remembered: (m_\w+)/.exec(made.out)?.[1] ?? '');
    }
    const applied = await engram(dir, ['--json', 'consolidate', '--apply']);
    const gist = (JSON.parse(applied.out) as { created: string[] }).created[0] ?? '';
    assert.match(gist, /^m_/, applied.out);
    const plain = await engram(dir, ['recall', 'Lisbon', 'hotel', '--no-detail']);
    assert.ok(plain.out.includes(gist) && !plain.out.includes(ids[1]!), plain.out);
    const detailed = await engram(dir, ['recall', 'Lisbon', 'hotel', '--detail']);
    assert.ok(detailed.out.includes(ids[1]!) && !detailed.out.includes(gist), detailed.out);
    const undone = await engram(dir, ['unconsolidate', gist]);
    assert.equal(undone.code, 0, undone.err);
    assert.match(undone.out, new RegExp(`^unconsolidated ${gist}: 2 restored`));
    const again = await engram(dir, ['unconsolidate', gist]);
    assert.notEqual(again.code, 0);
    assert.equal(again.err.trim().split('\n').length, 1, again.err);
  });
});
