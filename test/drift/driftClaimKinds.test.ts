import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import type { ClaimReport, DriftReport } from '../../engine/drift/driftReport';
import { tempDir } from '../support/temp';
import { driftHost, fixAccepted, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';

function claimOf(report: DriftReport, id: string, kind: string): ClaimReport {
  const claim = report.memories.find((m) => m.id === id)?.claims.find((c) => c.kind === kind);
  assert.ok(claim, `no ${kind} claim of ${id} in ${JSON.stringify(report.memories)}`);
  return claim;
}

function statusOf(report: DriftReport, id: string): string | undefined {
  return report.memories.find((m) => m.id === id)?.status;
}

describe('drift claim kinds: extraction', () => {
  it('extracts signatures, config values with their file, and routes with their method and file', () => {
    const summary = (text: string) =>
      extractClaims(text)
        .filter((c) => c.kind !== 'path')
        .map((c) => ({
          kind: c.kind,
          subject: c.subject,
          file: c.file,
          ...(c.signature
            ? { signature: c.signature, stated: text.slice(...(c.signatureSpan ?? [0, 0])) }
            : {}),
          ...(c.value ? { value: c.value, stated: text.slice(...(c.valueSpan ?? [0, 0])) } : {}),
          ...(c.method ? { method: c.method } : {}),
        }));
    assert.deepEqual(summary('`function parse(input: string, opts)` in src/parser.ts reads configs.'), [
      {
        kind: 'symbol',
        subject: 'parse',
        file: 'src/parser.ts',
        signature: '(input: string, opts)',
        stated: '(input: string, opts)',
      },
    ]);
    assert.deepEqual(summary('tsconfig has strict: true'), [
      { kind: 'config', subject: 'strict', file: 'tsconfig.json', value: 'true', stated: 'true' },
    ]);
    assert.deepEqual(summary('The port is 3000 in config.yaml.'), [
      { kind: 'config', subject: 'port', file: 'config.yaml', value: '3000', stated: '3000' },
    ]);
    assert.deepEqual(summary('In `config/app.toml`, `log_level = "debug"`.'), [
      { kind: 'config', subject: 'log_level', file: 'config/app.toml', value: 'debug', stated: '"debug"' },
    ]);
    assert.deepEqual(summary('GET /users/:id is handled in routes/users.ts'), [
      { kind: 'route', subject: '/users/:id', file: 'routes/users.ts', method: 'GET' },
    ]);
    // A call with plain arguments is no signature, and prose without a config file gives no value.
    assert.equal(extractClaims('Call `login(user, password)` first.')[0]?.signature, undefined);
    assert.deepEqual(summary('The build is 3000 lines long.'), []);
    // Code is no config: `c.req.json()` is a call, `jsonData = await` an assignment of code.
    assert.deepEqual(
      extractClaims('const jsonData = await c.req.json()').filter((c) => c.kind === 'config'),
      [],
    );
  });
});

describe('drift claim kinds: verification against files and history', () => {
  it('a changed signature is stale with the new one as the repair, dated at the commit that changed it', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'src/parser.ts':
          'export interface ParseOptions { strict?: boolean }\nexport function parse(input: string, opts: ParseOptions = {}): string {\n  return input;\n}\n',
      },
    });
    repo.commit('Docs', '2025-02-10T00:00:00Z', { write: { 'README.md': '# parser\n' } });
    const changing = repo.commit('parse takes a source and a strict flag', T2, {
      write: {
        'src/parser.ts':
          'export interface ParseOptions { strict?: boolean }\nexport function parse(source: string, options: ParseOptions, strict = false): string {\n  return source;\n}\n',
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const stale = await rememberAt(
      test,
      '`function parse(input: string, opts)` in src/parser.ts reads configs.',
      BEFORE_CHANGE,
    );
    const current = await rememberAt(
      test,
      '`function parse(source: string, options, strict)` in src/parser.ts reads configs.',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    const claim = claimOf(report, stale, 'symbol');
    assert.equal(claim.verdict, 'stale');
    assert.equal(claim.evidence.reason, 'signature changed');
    assert.match(claim.evidence.now ?? '', /parse\(source: string, options: ParseOptions, strict = false\)/);
    assert.equal(claim.evidence.commit?.hash, changing);
    assert.equal(statusOf(report, stale), 'moved', 'a repairable claim is fixed by a rewrite');
    assert.equal(claimOf(report, current, 'symbol').verdict, 'ok');

    await fixAccepted(test);
    assert.equal(
      (await test.call('get', { id: stale })).memory.content,
      '`function parse(source: string, options: ParseOptions, strict = false)` in src/parser.ts reads configs.',
    );
  });

  it('config values: a changed value is repaired, a removed key is stale, both dated; values that hold are ok', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'tsconfig.json':
          '{\n  // comments are allowed\n  "compilerOptions": { "strict": true, "target": "ES2020" }\n}\n',
        'config.yaml': 'server:\n  port: 3000\ncache:\n  ttl: 60\n',
      },
    });
    const changing = repo.commit('Serve on 8080, no cache', T2, {
      write: { 'config.yaml': 'server:\n  port: 8080\n' },
    });
    const test = await driftHost(repo.root);
    const strict = await rememberAt(test, 'tsconfig has strict: true', BEFORE_CHANGE);
    const port = await rememberAt(test, 'The port is 3000 in config.yaml.', BEFORE_CHANGE);
    const ttl = await rememberAt(test, 'The `cache.ttl` setting is 60 in `config.yaml`.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    assert.equal(claimOf(report, strict, 'config').verdict, 'ok');
    const portClaim = claimOf(report, port, 'config');
    assert.equal(portClaim.verdict, 'stale');
    assert.equal(portClaim.evidence.now, '8080');
    assert.equal(portClaim.evidence.commit?.hash, changing);
    const ttlClaim = claimOf(report, ttl, 'config');
    assert.equal(ttlClaim.verdict, 'stale');
    assert.equal(ttlClaim.evidence.reason, 'no longer in config.yaml');
    assert.equal(ttlClaim.evidence.commit?.hash, changing);

    await fixAccepted(test);
    assert.equal((await test.call('get', { id: port })).memory.content, 'The port is 8080 in config.yaml.');
    assert.equal(
      (await test.call('get', { id: ttl })).memory.content,
      'The `cache.ttl` setting is 60 in `config.yaml`.',
      'a key that is gone has nothing to rewrite it with',
    );
  });

  it('a change to a config file re-checks only the memories whose claims name it', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'config.yaml': 'port: 3000\n', 'other.yaml': 'mode: 1\n' },
    });
    const test = await driftHost(repo.root);
    const port = await rememberAt(test, 'The port is 3000 in config.yaml.', BEFORE_CHANGE);
    const mode = await rememberAt(test, 'The mode is 1 in other.yaml.', BEFORE_CHANGE);
    await test.call('drift');
    writeFileSync(path.join(repo.root, 'config.yaml'), 'port: 9000\n');
    const report = await test.call('drift', { paths: ['config.yaml'], all: true });
    assert.equal(report.checked.incremental, true);
    assert.deepEqual(
      report.memories.map((m) => m.id),
      [port],
    );
    assert.equal(claimOf(report, port, 'config').evidence.now, '9000');
    assert.notEqual(mode, port);
  });

  it('config values without git: read from the file, no commit, said so', async () => {
    const root = tempDir('engram-config-');
    writeFileSync(path.join(root, '.env'), 'PORT=4000\nexport LOG_LEVEL="info"\n');
    writeFileSync(path.join(root, 'app.toml'), '[db]\npool = 5\n');
    const test = await driftHost(root);
    const env = await rememberAt(test, 'In .env, LOG_LEVEL=debug and PORT=4000.', BEFORE_CHANGE);
    const toml = await rememberAt(test, 'The pool is 5 in app.toml.', BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });
    const claims = report.memories.find((m) => m.id === env)?.claims.filter((c) => c.kind === 'config') ?? [];
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict, c.evidence.now, c.evidence.commit]),
      [
        ['LOG_LEVEL', 'stale', 'info', undefined],
        ['PORT', 'ok', '4000', undefined],
      ],
    );
    assert.equal(claimOf(report, toml, 'config').verdict, 'ok');
    assert.match(report.history.note, /no git repository/);
  });

  it('routes: moved to another file, a method no longer served, and one still in place', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'routes/users.ts':
          "router.get('/users/:id', show);\nrouter.post('/users', create);\nrouter.get('/users', list);\n",
        'routes/accounts.ts': "router.get('/accounts', index);\n",
      },
    });
    const moving = repo.commit('Users by id are accounts now; create is a PUT', T2, {
      write: {
        'routes/users.ts': "router.put('/users', create);\nrouter.get('/users', list);\n",
        'routes/accounts.ts': "router.get('/accounts', index);\nrouter.get('/users/{userId}', show);\n",
      },
    });
    const test = await driftHost(repo.root);
    const byId = await rememberAt(test, 'GET /users/:id is handled in routes/users.ts', BEFORE_CHANGE);
    const create = await rememberAt(test, 'POST /users is handled in routes/users.ts', BEFORE_CHANGE);
    const list = await rememberAt(test, 'GET /users is handled in routes/users.ts', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const moved = claimOf(report, byId, 'route');
    assert.equal(moved.verdict, 'moved');
    assert.equal(moved.evidence.target, 'routes/accounts.ts');
    assert.equal(moved.evidence.commit?.hash, moving);
    const method = claimOf(report, create, 'route');
    assert.equal(method.verdict, 'stale');
    assert.equal(method.evidence.now, 'GET, PUT', 'the methods /users answers now');
    assert.equal(method.evidence.commit?.hash, moving);
    assert.equal(claimOf(report, list, 'route').verdict, 'ok');

    await fixAccepted(test);
    assert.equal(
      (await test.call('get', { id: byId })).memory.content,
      'GET /users/:id is handled in routes/accounts.ts',
    );
  });
  it("a route a file of the reader's app corresponds to is theirs, even where a fixture of the project had it", async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'test/app/server.ts': "router.get('/about', about);\n" } });
    repo.commit('Drop the fixture route', T2, {
      write: { 'test/app/server.ts': "router.get('/', home);\n" },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(
      test,
      'A file called `src/routes/about.svelte` would correspond to the `/about` route.',
      BEFORE_CHANGE,
    );
    const route = claimOf(await test.call('drift', { all: true }), id, 'route');
    assert.equal(route.verdict, 'unverifiable', JSON.stringify(route));
    assert.match(route.evidence.reason, /reader's app/);
  });
});
