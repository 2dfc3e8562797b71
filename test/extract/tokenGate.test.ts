import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TokenPattern } from '../../engine/extract/secretCandidate';
import { tokenHintGate } from '../../engine/extract/secretPatterns';
import { redactSecrets } from '../../engine/extract/secrets';

const pattern = (hint: string | RegExp): TokenPattern => ({ kind: 'jwt', hint, re: /x/g });
// Every kind of hint the token patterns use: literal, case-sensitive, case-insensitive, anchored.
const PATTERNS = [
  pattern('sk-'),
  pattern('hooks.slack.com'),
  pattern(/A(?:KIA|SIA)/),
  pattern(/secret/i),
  pattern(/authorization|bearer/i),
  pattern(/(?:^|\s)(?:-u|--user)[ \t=]/),
];
const admits = (text: string) =>
  PATTERNS.some((p) => (typeof p.hint === 'string' ? text.includes(p.hint) : p.hint.test(text)));

test('the combined gate admits exactly the texts some hint admits', () => {
  const gate = tokenHintGate(PATTERNS);
  const texts = [
    '{"type":"assistant","usage":{"output_tokens":3}}',
    'task-sk-1',
    'SK-upper',
    'hooks.slack.com/x',
    'hooksXslackXcom',
    'AKIA',
    'akia',
    'a SECRET',
    'Bearer x',
    'curl -u a:b',
    'curl-u a:b',
    '-u a',
    '--user=a',
    '',
  ];
  for (const text of texts) assert.equal(gate(text), admits(text), text);
});

test('a token behind each real hint is still redacted through the gate', () => {
  // Assembled at run time for scanners' sake.
  const secrets = [
    'AKIA' + 'Q3EGRK7TWMV5XN2P',
    'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
    'sk-ant-' + 'api03-a1B2c3D4e5F6g7H8i9J0k1L2',
    'xoxb-' + '1234567890-abcdefABCDEF',
  ];
  for (const s of secrets) assert.ok(!redactSecrets(`key ${s} here`).text.includes(s), s);
});
