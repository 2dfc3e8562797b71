import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';

const root = path.join(__dirname, '..', '..');
const dist = path.join(root, 'dist');

type AsciiOnly = (code: string, file?: string) => string;
const loadAsciiOnly = async (): Promise<AsciiOnly> =>
  (
    (await import(pathToFileURL(path.join(root, 'scripts', 'asciiBundle.mjs')).href)) as {
      asciiOnly: AsciiOnly;
    }
  ).asciiOnly;

const NON_ASCII = /\P{ASCII}/u;

describe('bundles are ASCII, so V8 keeps their source one byte per character', () => {
  // The test runner builds dist/ before any test runs (scripts/runTests.mjs). dist/fixture-*.js
  // are the suite's own child processes (test/support/fixtureBundle.ts), not build outputs: which
  // of them exist depends on which test files ran before this one.
  for (const name of readdirSync(dist).filter((n) => n.endsWith('.js') && !n.startsWith('fixture-'))) {
    it(`dist/${name} holds no non-ASCII character`, () => {
      const code = readFileSync(path.join(dist, name), 'utf8');
      const at = code.search(NON_ASCII);
      assert.equal(
        at,
        -1,
        `dist/${name}: non-ASCII at offset ${at}: ${JSON.stringify(code.slice(at - 30, at + 10))}`,
      );
    });
  }

  it('escaping keeps what regular expressions, strings and comments mean', async () => {
    const asciiOnly = await loadAsciiOnly();
    const source = String.raw`/* it’s — fine */ ({
      possessive: /['’]s$/.test("Ann’s"),
      ellipsis: /^(?:\.{3}|…)$/.test('…'),
      unicodeClass: /[\p{L}’-]+/u.exec('x café’s 😀')[0],
      astral: /^😀$/u.test('😀'),
      astralPlain: /^😀$/.test('😀'),
      text: 'naïve ⇗',
    })`;
    const escaped = asciiOnly(source);
    assert.doesNotMatch(escaped, NON_ASCII);
    assert.deepEqual((0, eval)(escaped), (0, eval)(source));
  });

  it('refuses a non-ASCII identity escape instead of changing its meaning', async () => {
    const asciiOnly = await loadAsciiOnly();
    assert.throws(() => asciiOnly('/\\’/', 'x.js'), /x\.js: cannot escape "’" after a backslash/);
  });
});
