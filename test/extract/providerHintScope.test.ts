import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { PROVIDER_PATTERNS } from '../../engine/extract/providerTokens';
import { PROVIDER_HINT } from '../../engine/extract/secretPatterns';
import { forgetCleanTexts, storedText } from '../../engine/extract/storedText';

/**
 * A hint's source made only of what matches letters, digits and `_.=-`: those characters, `\.`,
 * `\d`, classes of them, groups, alternatives and counts. No `.` wildcard, anchor or lookaround.
 */
const ALPHABET_SOURCE = /^(?:[A-Za-z0-9_=-]|\\[.d]|\[[A-Za-z0-9_.=-]+\]|\(\?:|\)|\||\?|\{\d+(?:,\d+)?\})+$/;

test('every provider token hint matches only characters no JSON escape but \\u writes', () => {
  for (const { kind, hint } of PROVIDER_PATTERNS) {
    if (typeof hint === 'string') assert.match(hint, /^[A-Za-z0-9_.=-]+$/, kind);
    else {
      assert.equal(hint.flags, '', kind);
      assert.match(hint.source, ALPHABET_SOURCE, kind);
    }
  }
});

/** Counts PROVIDER_HINT's tests while `fn` runs. */
function gateTests(fn: () => void): number {
  let calls = 0;
  const test = PROVIDER_HINT.test.bind(PROVIDER_HINT);
  PROVIDER_HINT.test = (text: string) => {
    calls++;
    return test(text);
  };
  try {
    fn();
  } finally {
    delete (PROVIDER_HINT as { test?: unknown }).test; // the prototype's again
  }
  return calls;
}

test('the strings of a JSON text that holds no provider hint are not gated again', () => {
  forgetCleanTexts();
  const unique = randomUUID();
  const text = JSON.stringify({ id: unique, body: `${unique} `.repeat(40), parts: ['one', { two: unique }] });
  assert.equal(
    gateTests(() => assert.equal(storedText(text), text)),
    1,
  );
});

test('a provider token in a string is still redacted when only a \\u escape or a nested string holds it', () => {
  forgetCleanTexts();
  const secret = `LTAI${'Q7w9Zr2Xk4Pm8Ny3Vb6T'}`;
  // `\u004c` is `L`: the JSON text holds `TAI...`, its string holds `LTAI...`.
  const escaped = `{"note":"the key \\u004c${secret.slice(1)} is old","id":"${randomUUID()}"}`;
  assert.ok(!PROVIDER_HINT.test(escaped));
  assert.match(storedText(escaped), /\[REDACTED:alibaba-access-key\]/);
  assert.ok(!storedText(escaped).includes(secret.slice(1)));
  // A JSON string holding JSON whose string writes the key with an escape.
  const nested = JSON.stringify({ input: `{"key":"\\u004c${secret.slice(1)}"}`, id: randomUUID() });
  assert.ok(!PROVIDER_HINT.test(nested));
  assert.ok(!storedText(nested).includes(secret.slice(1)));
  // A secret in a key, behind an escaped newline.
  const keyed = JSON.stringify({ [`x\n${secret}`]: randomUUID() });
  assert.ok(!storedText(keyed).includes(secret));
});
