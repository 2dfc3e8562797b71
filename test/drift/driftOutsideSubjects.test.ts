import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';

const OWN = { projectPackages: new Set(['thelib']) };
/** The symbols a text claims with confidence: the others only ask for review when found false. */
const symbols = (text: string, own = OWN) =>
  extractClaims(text, own)
    .filter((c) => c.kind === 'symbol' && c.confidence !== 'low')
    .map((c) => c.subject);

describe('drift claims about something other than the project', () => {
  it("a key of another tool's configuration file is not surely the project's symbol, unless the project is that tool", () => {
    const text = 'Set the `target` property in `tsconfig.json` to `es2017` to avoid the warning.';
    assert.deepEqual(symbols(text), []);
    assert.deepEqual(symbols(text, { projectPackages: new Set(['typescript']) }), ['target']);
    assert.deepEqual(symbols('Set the `target` property of `thelib.configure` to `es2017`.'), [
      'target',
      'thelib.configure',
    ]);
  });

  it('a quoted string in code quotes is a value or a JSON key, not surely a name in the code', () => {
    assert.deepEqual(symbols('Enable the `"declaration"` option in the `"compilerOptions"` object.'), []);
    assert.deepEqual(symbols('Call `thelib.compile()` with the `strictMode` option.'), [
      'thelib.compile',
      'strictMode',
    ]);
  });

  it("a name linked to another site is most likely defined there; a link to the project's own docs keeps it", () => {
    const text =
      'Schemas are reused through the JSON Schema [**`$ref`**](https://tools.ietf.org/html/draft-01#section-8) keyword. ' +
      'See [`thelib.listen`](https://github.com/acme/thelib/blob/main/docs/Server.md#listen).';
    assert.deepEqual(symbols(text), ['thelib.listen']);
  });
});
