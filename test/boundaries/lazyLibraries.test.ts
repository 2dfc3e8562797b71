import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const dist = path.join(__dirname, '..', '..', 'dist');
const read = (name: string) => readFileSync(path.join(dist, name), 'utf8');

/**
 * The libraries scripts/build.mjs bundles on their own (lazyLibraries): a string only the library's
 * code holds, so finding it in a bundle means the library was copied in instead of loaded beside it.
 */
const LAZY = [
  { file: 'lazy/hnswlibWasm.js', marker: 'waitForFileSystemSynced', users: ['engineCore.js'] },
  { file: 'lazy/fakeIndexeddb.js', marker: 'FDBKeyRange', users: ['engineCore.js'] },
  { file: 'lazy/pg.js', marker: 'SCRAM-SHA-256', users: ['engineCore.js'] },
  { file: 'lazy/yaml.js', marker: 'Implicit map keys need to be', users: ['engineCore.js'] },
  { file: 'lazy/smolToml.js', marker: 'Invalid TOML document', users: ['engineCore.js'] },
  {
    file: 'lazy/simpleGit.js',
    marker: 'Cannot use simple-git on a directory that does not exist',
    users: ['engineCore.js'],
  },
  { file: 'lazy/honoNodeServer.js', marker: 'Backslash in request path', users: ['engineCore.js'] },
];

describe('libraries the engine loads on first use stay out of the bundles that load the engine', () => {
  // The test runner builds dist/ before any test runs (scripts/runTests.mjs).
  for (const { file, marker, users } of LAZY) {
    it(`dist/${file} holds its library, which ${users.join(' and ')} load from beside them`, () => {
      assert.ok(read(file).includes(marker), `dist/${file} lacks ${marker}`);
      for (const user of users) {
        const code = read(user);
        assert.ok(!code.includes(marker), `dist/${user} carries a copy of dist/${file}`);
        assert.match(code, new RegExp(`(require|import)\\("\\./${file.replace(/\./g, '\\.')}"\\)`));
      }
    });
  }

  it('loading the engine evaluates none of them, and each loads from dist/ when asked for', () => {
    // A fresh process: what requiring dist/engineCore.js puts in the module cache, then the lazy files.
    const script = `
      require(${JSON.stringify(path.join(dist, 'engineCore.js'))});
      const loaded = () => Object.keys(require.cache).map((f) => require('node:path').basename(f));
      const atStart = loaded();
      import(${JSON.stringify(path.join(dist, 'lazy', 'fakeIndexeddb.js'))}).then((idb) => {
        process.stdout.write(JSON.stringify({ atStart, indexedDB: typeof idb.indexedDB }));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      atStart: string[];
      indexedDB: string;
    };
    assert.deepEqual(
      out.atStart.filter((name) => LAZY.some((lib) => path.basename(lib.file) === name)),
      [],
      `loaded at start: ${out.atStart.join(', ')}`,
    );
    assert.equal(out.indexedDB, 'object');
  });

  it('no bundle holds gpt-tokenizer: they count tokens with dist/lazy/o200k.bin', () => {
    // The library's own error message: only its encoder's code holds it.
    const marker = 'Disallowed special token found';
    const bundles = ['.', 'lazy'].flatMap((dir) =>
      readdirSync(path.join(dist, dir))
        .filter((name) => name.endsWith('.js'))
        .map((name) => path.join(dir, name)),
    );
    assert.ok(bundles.includes('engineCore.js'), bundles.join(', '));
    assert.deepEqual(
      bundles.filter((bundle) => read(bundle).includes(marker)),
      [],
    );
  });
});
