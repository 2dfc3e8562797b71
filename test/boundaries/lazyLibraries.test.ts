import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const dist = path.join(__dirname, '..', '..', 'dist');
const read = (name: string) => readFileSync(path.join(dist, name), 'utf8');

/**
 * The libraries scripts/build.mjs bundles on their own (lazyLibraries): a string only the library's
 * code holds, so finding it in a bundle means the library was copied in instead of loaded beside it.
 */
const LAZY = [
  { file: 'lazy/gptTokenizer.js', marker: 'o200k_base', users: ['engineCore.js', 'scanWorker.js'] },
  { file: 'lazy/hnswlibWasm.js', marker: 'waitForFileSystemSynced', users: ['engineCore.js'] },
  { file: 'lazy/fakeIndexeddb.js', marker: 'FDBKeyRange', users: ['engineCore.js'] },
  { file: 'lazy/pg.js', marker: 'SCRAM-SHA-256', users: ['engineCore.js'] },
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
      const tokens = require(${JSON.stringify(path.join(dist, 'lazy', 'gptTokenizer.js'))}).countTokens('hello world');
      import(${JSON.stringify(path.join(dist, 'lazy', 'fakeIndexeddb.js'))}).then((idb) => {
        process.stdout.write(JSON.stringify({ atStart, tokens, indexedDB: typeof idb.indexedDB }));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      atStart: string[];
      tokens: number;
      indexedDB: string;
    };
    assert.deepEqual(
      out.atStart.filter((name) => LAZY.some((lib) => path.basename(lib.file) === name)),
      [],
      `loaded at start: ${out.atStart.join(', ')}`,
    );
    assert.equal(out.tokens, 2);
    assert.equal(out.indexedDB, 'object');
  });

  it('dist/lazy/gptTokenizer.js parses the rank table as JSON and counts and encodes as the library does', () => {
    // scripts/tokenizerRanks.mjs: a JSON string instead of a 200k-element array literal.
    assert.match(read('lazy/gptTokenizer.js'), /exports\d*\.default=JSON\.parse\(/);
    const text = `${read('../docs/benchmarks.md').slice(0, 20_000)} h\u00e9llo w\u00f6rld \u65e5\u672c\u8a9e \u{1F600}`;
    const script = `
      const text = require('node:fs').readFileSync(0, 'utf8');
      const bundled = require(${JSON.stringify(path.join(dist, 'lazy', 'gptTokenizer.js'))});
      const library = require('gpt-tokenizer');
      process.stdout.write(JSON.stringify([bundled.encode(text), library.encode(text)].map(String)));`;
    const [bundled, library] = JSON.parse(
      execFileSync(process.execPath, ['-e', script], {
        encoding: 'utf8',
        input: text,
        cwd: path.join(dist, '..'),
      }),
    ) as [string, string];
    assert.ok(bundled.length > 1000);
    assert.equal(bundled, library);
  });
});
