import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * One fake credential of each kind the README promises to redact, assembled at run time so that
 * no secret-looking literal sits in the source. `needle` is the part that must never be stored:
 * searched case-insensitively, since tags and entity keys are lower-cased before they are stored.
 */
export interface FakeSecret {
  kind: string;
  text: string;
  needle: string;
  /** The kind redactSecrets names, as in `[REDACTED:<kind>]`. */
  redactedAs: string;
}

const PRIVATE_KEY_BODY = 'MIIEowIBAAKCAQEA' + 'q7Zr9XbQ2wLm';
const BEARER = 'abcDEF123456' + 'ghiJKLmn';

export const FAKE_SECRETS: readonly FakeSecret[] = [
  {
    kind: 'aws-access-key',
    text: 'AKIA' + 'Q3ZX7TBN2KLM5RWP',
    needle: 'Q3ZX7TBN2KLM5RWP',
    redactedAs: 'aws-access-key',
  },
  {
    kind: 'github-token',
    text: 'ghp_' + 'x9K2'.repeat(9),
    needle: 'x9K2'.repeat(9),
    redactedAs: 'github-token',
  },
  {
    kind: 'openai-key',
    text: 'sk-' + 'proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv',
    needle: 'Ab3dEf6hIj9kLm2nOp5qRs8tUv',
    redactedAs: 'openai-key',
  },
  {
    kind: 'slack-token',
    text: 'xoxb-' + '4815162342-AbCdEfGhIjKlMn',
    needle: '4815162342-AbCdEfGhIjKlMn',
    redactedAs: 'slack-token',
  },
  {
    kind: 'private-key',
    text: [
      '-----BEGIN RSA ' + 'PRIVATE KEY-----',
      PRIVATE_KEY_BODY,
      '-----END RSA ' + 'PRIVATE KEY-----',
    ].join('\n'),
    needle: PRIVATE_KEY_BODY,
    redactedAs: 'private-key',
  },
  { kind: 'password', text: 'password=' + 'hunter2Zq9x', needle: 'hunter2Zq9x', redactedAs: 'password' },
  {
    kind: 'connection-string',
    text: 'postgres://app:' + 'Pw0rdZq7Lk' + '@db.internal/app',
    needle: 'Pw0rdZq7Lk',
    redactedAs: 'password',
  },
  {
    kind: 'jwt',
    text: 'eyJ' + 'hbGciOi.eyJzdWIiOi.' + 'SflKxwRJSMeKKF2Q',
    needle: 'SflKxwRJSMeKKF2Q',
    redactedAs: 'jwt',
  },
  {
    kind: 'bearer-token',
    text: 'Authorization: Bearer ' + BEARER,
    needle: BEARER,
    redactedAs: 'bearer-token',
  },
];

/** The secrets short enough to be a tag (64 characters at most). */
export const TAG_SECRETS = FAKE_SECRETS.filter((s) => s.text.length <= 64);

/** Every file under `dir` (database, journal, snapshots, exports), as text that keeps every byte. */
export function filesUnder(dir: string): Array<[where: string, text: string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push([`file ${path.relative(dir, full) || name}`, readFileSync(full).toString('latin1')]);
  }
  return out;
}

/** Fails naming every secret kind found and where (a read result or a file), if any. */
export function assertNoSecrets(
  places: ReadonlyArray<readonly [where: string, text: string]>,
  secrets: readonly FakeSecret[] = FAKE_SECRETS,
): void {
  const leaks: string[] = [];
  for (const [where, text] of places) {
    const haystack = text.toLowerCase();
    for (const secret of secrets) {
      if (haystack.includes(secret.needle.toLowerCase())) leaks.push(`${secret.kind} in ${where}`);
    }
  }
  assert.deepEqual(leaks, [], `secrets stored or shown:\n  ${leaks.join('\n  ')}`);
}

/**
 * Fails unless the reads show a redaction marker of every kind: the write was kept, redacted (a
 * write that stored nothing would pass assertNoSecrets as well).
 */
export function assertRedacted(
  shown: ReadonlyArray<readonly [where: string, text: string]>,
  secrets: readonly FakeSecret[] = FAKE_SECRETS,
): void {
  const all = shown.map(([, text]) => text.toLowerCase()).join('\n');
  const missing = secrets.filter((s) => !all.includes(`[redacted:${s.redactedAs}]`)).map((s) => s.kind);
  assert.deepEqual(missing, [], `no redaction marker shown for: ${missing.join(', ')}`);
}
