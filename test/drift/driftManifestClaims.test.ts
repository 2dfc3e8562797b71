import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const T3 = '2025-04-01T12:00:00Z';

const pkg = (fields: object) => `${JSON.stringify({ name: 'app', ...fields }, null, 2)}\n`;

describe('drift on package scripts and dependencies', () => {
  it('a script the root manifest dropped is gone, although a nested package added one of that name', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({ scripts: { start: 'nps', test: 'mocha' } }), 'README.md': '# app\n' },
    });
    const dropping = repo.commit('Replace nps with npm scripts', T2, {
      write: { 'package.json': pkg({ scripts: { docs: 'cd docs && npm run build', test: 'mocha' } }) },
    });
    repo.commit('A docs site with its own package', T3, {
      write: { 'docs/package.json': pkg({ scripts: { start: 'astro dev', build: 'astro build' } }) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'To rebuild the site, execute `npm start docs`; `npm test` runs the tests.',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims.filter((c) => c.kind === 'script');
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict]),
      [
        ['start', 'stale'],
        ['test', 'ok'],
      ],
    );
    assert.equal(claims[0]?.evidence.commit?.hash, dropping);
  });

  it('a script only a nested package declared, then and now, still holds', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({ scripts: { test: 'mocha' } }),
        'site/package.json': pkg({ scripts: { preview: 'astro preview' } }),
      },
    });
    repo.commit('Touch the root manifest', T2, {
      write: { 'package.json': pkg({ scripts: { test: 'mocha --bail' } }) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(test, 'In `site/`, run `npm run preview` to see the site.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.kind === 'script');
    assert.equal(claim?.verdict, 'ok');
  });

  it('a package the project says it is built on is checked against package.json and dated at its removal', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({ dependencies: { 'fast-redact': '^3.0.0', 'sonic-boom': '^3.0.0' } }) },
    });
    const replacing = repo.commit('Replace fast-redact with our own redaction', T2, {
      write: {
        'package.json': pkg({
          dependencies: { '@app/redact': '^1.0.0', 'sonic-boom': '^4.0.0' },
          optionalDependencies: { fsevents: '^2.0.0' },
        }),
      },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(
      test,
      "App's redaction is built on top of [`fast-redact`](https://github.com/x/fast-redact). " +
        'We use the high speed [`sonic-boom` ⇗](https://github.com/x/sonic-boom) library. ' +
        'You can use [`pino-pretty`](https://github.com/x/pino-pretty) to read the logs. ' +
        'On macOS we use the [fsevents](https://www.npmjs.com/package/fsevents) module to watch files. ' +
        'It uses the `content-type` header.',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims.filter((c) => c.kind === 'dependency');
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict]),
      [
        ['fast-redact', 'stale'],
        ['sonic-boom', 'ok'],
        ['fsevents', 'ok'],
      ],
    );
    assert.equal(claims[0]?.evidence.commit?.hash, replacing);
  });
});

describe('the project package named only by its lockfile', () => {
  it("a nameless root package.json (the published one built elsewhere) is the lockfile's package", async () => {
    const repo = new GitRepository();
    const lock = '{\n  "name": "widgets",\n  "version": "1.0.0",\n  "lockfileVersion": 3\n}\n';
    const index = (extra: string) =>
      `exports.frameguard = function frameguard(options) { return options }\n${extra}`;
    repo.commit('initial', T1, {
      write: {
        'package.json': '{ "private": true, "version": "1.0.0" }\n',
        'package-lock.json': lock,
        'index.js': index('exports.expectCt = function expectCt(options) { return options.enforce }\n'),
      },
    });
    const removing = repo.commit('Remove expectCt', T2, { write: { 'index.js': index('') } });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      '```js\napp.use(\n  widgets.expectCt({\n    enforce: true,\n  })\n);\n```',
      BEFORE_CHANGE,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const call = claims.find((c) => c.subject === 'widgets.expectCt');
    // Through the package's own name the call and the option it passes are the project's: decisive.
    assert.deepEqual(
      [call?.verdict, call?.evidence.doubtful, call?.evidence.commit?.hash],
      ['stale', undefined, removing],
      JSON.stringify(claims),
    );
    assert.equal(claims.find((c) => c.subject === 'enforce')?.evidence.doubtful, undefined);
  });
});
