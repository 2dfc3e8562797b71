import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactSecrets } from '../../engine/extract/secrets';

export function redacted(text: string): string {
  return redactSecrets(text).text;
}

export function assertUntouched(text: string): void {
  const result = redactSecrets(text);
  assert.equal(result.text, text, `changed: ${JSON.stringify(text)} -> ${JSON.stringify(result.text)}`);
  assert.deepEqual(result.redactions, []);
}

/** A test per case: each input redacted as expected, each clean text untouched. */
export function expectRedactions(cases: ReadonlyArray<[string, string]>, clean: readonly string[]): void {
  for (const [input, expected] of cases) {
    test(input, () => assert.equal(redacted(input), expected));
  }
  for (const text of clean) {
    test(`untouched: ${text}`, () => assertUntouched(text));
  }
}
