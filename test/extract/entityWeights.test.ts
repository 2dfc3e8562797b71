// How extractEntities merges mentions and weighs entities, and what it does with odd inputs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EngramError } from '../../engine/errors';
import { extractEntities } from '../../engine/extract/entities';
import { entity, mentions } from './entityQueries';

describe('merging and weights', () => {
  test('keys are lower-cased and unique', () => {
    const found = extractEntities('Docker, docker and DOCKER; src/A.ts and src/a.ts.');
    const keys = found.map((e) => e.key);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(keys.every((k) => k === k.toLowerCase().trim()));
    assert.equal(entity('Docker, docker and DOCKER.', 'docker').spans.length, 3);
  });

  test('every span shows the name or one of the aliases', () => {
    const text =
      'Caroline said getUserName() in src/a.ts:3 broke `npm run build` on 7 May 2023; see https://x.io/a. ' +
      'process.env.API_KEY and Postgres; npm i -D @types/node.';
    for (const e of extractEntities(text)) {
      for (const m of mentions(text, e))
        assert.ok(m === e.name || e.aliases.includes(m), `${m} not in ${e.name}`);
    }
  });

  test('weights lie in 0..1 and come sorted, most salient first', () => {
    const found = extractEntities(
      'Fix src/a.ts, then src/a.ts again with Docker on 2024-05-07 for Caroline.',
    );
    assert.ok(found.length >= 4);
    for (const e of found) assert.ok(e.weight > 0 && e.weight <= 1, `${e.key} ${e.weight}`);
    const weights = found.map((e) => e.weight);
    assert.deepEqual(
      weights,
      [...weights].sort((a, b) => b - a),
    );
  });

  test('a repeated entity outweighs one mentioned once', () => {
    const text = 'Docker broke. Redis was fine. Docker again, and Docker once more.';
    assert.ok(entity(text, 'docker').weight > entity(text, 'redis').weight);
  });

  test('an earlier mention outweighs a later one of the same type', () => {
    const text = 'src/first.ts is changed, and a long explanation follows before src/second.ts is named.';
    assert.ok(entity(text, 'src/first.ts').weight > entity(text, 'src/second.ts').weight);
  });

  test('a file outweighs a date at the same place and count', () => {
    assert.ok(entity('src/a.ts', 'src/a.ts').weight > entity('2024-05-07', '2024-05-07').weight);
  });
});

describe('inputs', () => {
  test('an empty text has no entities', () => {
    assert.deepEqual(extractEntities(''), []);
  });

  test('a non-string is rejected with INVALID_INPUT', () => {
    assert.throws(
      () => extractEntities(42 as unknown as string),
      (error: unknown) => EngramError.is(error, 'INVALID_INPUT'),
    );
  });

  test('redaction markers produce no entities, but a URL around one stays a URL', () => {
    const text = 'token [REDACTED:github-token] and postgres://app:[REDACTED:password]@db/app';
    const found = extractEntities(text);
    assert.deepEqual(
      found.map((e) => e.type),
      ['url'],
    );
    assert.equal(found[0]?.name, 'postgres://app:[REDACTED:password]@db/app');
  });

  test('pathological inputs finish without catastrophic backtracking', () => {
    const size = 100_000;
    const repeat = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const units = [
      'a',
      'a/',
      'a.',
      '/',
      '\\',
      'Ab ',
      'A_',
      '`a',
      'a(',
      'a::',
      'a->',
      '$A',
      '%A',
      '1 May ',
      '2024-05-07',
      '```\n',
      'http://',
      'http://x)',
      '@a/',
      'a@b.',
      'npm install ',
      '$ npm test\n',
      'import a\n',
      "from 'a' ",
      'process.env.',
      'A_B=',
      'Zoë ’',
      '𝒜b ',
      '~/',
      'C:\\',
      'a:',
      '8:56 pm on ',
      "a'",
      '-a',
    ];
    for (const unit of units) {
      const text = repeat(unit);
      const started = process.cpuUsage();
      extractEntities(text);
      const { user, system } = process.cpuUsage(started);
      const cpuMs = (user + system) / 1000;
      // A generous guard on this process's CPU time, not wall time (other test files and processes
      // share the two cores): catastrophic backtracking takes minutes, a linear scan milliseconds.
      assert.ok(
        cpuMs < 2000,
        `${JSON.stringify(unit)} x ${size / unit.length}: ${cpuMs.toFixed(0)} ms of CPU`,
      );
    }
  });
});
