import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactSecrets } from '../../engine/extract/secrets';
import { longTextScans, noteScannedClean, storedText } from '../../engine/extract/storedText';
import { storedParams } from '../../engine/store/writePolicy';

// Fake credentials assembled at run time, so that no scanner mistakes this file for a leak.
const AWS_ID = 'AKIA' + 'IOSFODNN7EXAMPLE';
const JWT = 'eyJ' + 'hbGciOi.eyJzdWIiOi.' + 'SflKxwRJSMeKKF2Q';
const GITHUB = 'ghp_' + 'x9K2'.repeat(9);
const KEY_BLOCK = [
  '-----BEGIN EC ' + 'PRIVATE KEY-----',
  'MHcCAQEEIBkg4LVWM9nuwNSk',
  '-----END EC ' + 'PRIVATE KEY-----',
].join('\n');

describe('lower-cased text (tags, entity keys)', () => {
  test('shapes that need an upper-case letter are found once lower-cased', () => {
    assert.equal(redactSecrets(`id ${AWS_ID.toLowerCase()}`).text, 'id [REDACTED:aws-access-key]');
    assert.equal(redactSecrets(JWT.toLowerCase()).text, '[REDACTED:jwt]');
    assert.equal(redactSecrets(`k: ${KEY_BLOCK.toLowerCase()} end`).text, 'k: [REDACTED:private-key] end');
  });

  test('text with an upper-case letter is held to the original shapes', () => {
    // Lower-case `akia...` in mixed-case prose is not a lower-cased key id.
    const text = `Akia ${AWS_ID.toLowerCase()} is a word here`;
    assert.equal(redactSecrets(text).text, text);
  });
});

describe('storedText: what the store may keep', () => {
  test('a text its caller scanned and found clean is not scanned again; one that may be JSON still is', () => {
    const scanned = `A memory's content, scanned once by remember. ${'The deploy waits for the canary. '.repeat(20)}`;
    assert.deepEqual(redactSecrets(scanned).redactions, []);
    noteScannedClean(scanned);
    const before = longTextScans();
    assert.equal(storedText(scanned), scanned);
    assert.equal(longTextScans(), before);
    // storedText scans JSON leaf by leaf too (a secret behind an escape): a note does not spare it.
    const json = JSON.stringify({ note: scanned.slice(0, 400), more: scanned.slice(400) });
    noteScannedClean(json);
    assert.equal(storedText(json), json);
    assert.equal(longTextScans(), before + 1);
  });

  test('a long clean text written again is not scanned again; one with a secret always is', () => {
    const clean = `A long session turn that names no secret. ${'The build passed after the fix. '.repeat(40)}`;
    const before = longTextScans();
    assert.equal(storedText(clean), clean);
    assert.equal(storedText(`${clean}`.slice(0)), clean);
    assert.equal(longTextScans() - before, 1);
    const secret = `${clean} token ${GITHUB}`;
    for (let i = 0; i < 2; i++) assert.match(storedText(secret), /\[REDACTED:github-token\]$/);
    assert.equal(longTextScans() - before, 3, 'a text with a secret is never remembered as clean');
  });

  test('plain text is redacted as redactSecrets does', () => {
    assert.equal(storedText(`token ${GITHUB}`), 'token [REDACTED:github-token]');
    assert.equal(storedText('nothing to hide'), 'nothing to hide');
  });

  test('JSON stays JSON: leaves and keys are redacted, a key block behind \\n escapes too', () => {
    const json = JSON.stringify({ reason: `rotated ${GITHUB}`, [AWS_ID]: [KEY_BLOCK, 3, null] });
    const stored = storedText(json);
    assert.deepEqual(JSON.parse(stored), {
      reason: 'rotated [REDACTED:github-token]',
      '[REDACTED:aws-access-key]': ['[REDACTED:private-key]', 3, null],
    });
  });

  test('a value named by its key is redacted inside JSON, and an escaped quote does not break it', () => {
    assert.deepEqual(JSON.parse(storedText(JSON.stringify({ password: 'hunter2Zq9x' }))), {
      password: '[REDACTED:password]',
    });
    // Whole-text redaction would cut at the escaped quote and leave invalid JSON: leaves are used.
    const quoted = JSON.stringify([`password="hunter2Zq9x" and more`]);
    assert.deepEqual(JSON.parse(storedText(quoted)), ['password="[REDACTED:password]" and more']);
  });

  test('a lower-cased tag list (JSON) is redacted', () => {
    const tags = JSON.stringify(['ops', AWS_ID.toLowerCase()]);
    assert.deepEqual(JSON.parse(storedText(tags)), ['ops', '[REDACTED:aws-access-key]']);
  });

  test('text that only looks like JSON is redacted as text', () => {
    assert.equal(storedText(`[draft] uses ${GITHUB}`), '[draft] uses [REDACTED:github-token]');
  });

  test('JSON without a secret is kept byte for byte', () => {
    const json = '{ "a" : [1, 2.50, "x"] }';
    assert.equal(storedText(json), json);
  });
});

describe('storedParams: the write policy on bound values', () => {
  test('texts are redacted; numbers, nulls and blobs pass; the caller array is not modified', () => {
    const blob = new Uint8Array([1, 2, 3]);
    const given = [`key ${GITHUB}`, 4, null, blob, 'plain'];
    const stored = storedParams(given);
    assert.deepEqual(stored, ['key [REDACTED:github-token]', 4, null, blob, 'plain']);
    assert.equal(given[0], `key ${GITHUB}`);
  });

  test('without a secret the same array comes back (no copy on the hot path)', () => {
    const given = ['m_1', 'semantic', 1, null];
    assert.equal(storedParams(given), given);
  });

  test('named parameters too', () => {
    assert.deepEqual(storedParams({ $a: JWT, $b: 1 }), { $a: '[REDACTED:jwt]', $b: 1 });
  });
});
