import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayHoldAssignment } from '../../engine/extract/secretAssignments';
import { redactSecrets } from '../../engine/extract/secrets';

// A value the assignment rule accepts for every key kind, assembled at run time for scanners' sake.
const VALUE = 'Hx7' + 'qP2mZ9vL4kW8';
const USAGE = '{"type":"assistant","message":{"usage":{"input_tokens":12,"output_tokens":340}},"keys":[1]}';

test('the gate lets a transcript record that only counts tokens skip the assignment scan', () => {
  assert.equal(mayHoldAssignment(USAGE), false);
  assert.equal(mayHoldAssignment('a passage about tokens, keys and secrets, with no value'), false);
  assert.equal(redactSecrets(USAGE).text, USAGE);
});

test('every key word, with what splitting drops after it, in every form, is still redacted', () => {
  const words = [
    'password',
    'passwd',
    'pwd',
    'pass',
    'passphrase',
    'secret',
    'token',
    'apiKey',
    'ACCESS_KEY',
  ];
  const forms = [
    (k: string) => `${k}=${VALUE}`,
    (k: string) => `"${k}": "${VALUE}"`,
    (k: string) => `${k} := "${VALUE}"`,
    (k: string) => `cfg['${k}'] = "${VALUE}"`,
    (k: string) => `${k} string = "${VALUE}"`,
    (k: string) => `--${k.replace(/\./g, '-')} ${VALUE}`,
    (k: string) => `set("${k}", "${VALUE}")`,
    (k: string) => `<${k}>${VALUE}</${k}>`,
  ];
  // Far past the first kilobytes of clean text, at the very start and at the very end.
  const around: [string, string][] = [
    ['', ''],
    [USAGE.repeat(300) + '\n', ''],
    ['', '\n' + USAGE],
  ];
  for (const word of words) {
    for (const tail of ['', '_', '.', '-', '__']) {
      for (const form of forms) {
        for (const [before, after] of around) {
          const text = before + form(`db_${word}${tail}`) + after;
          assert.equal(mayHoldAssignment(text), true, form(`db_${word}${tail}`));
          assert.ok(!redactSecrets(text).text.includes(VALUE), form(`db_${word}${tail}`));
        }
      }
    }
  }
});
