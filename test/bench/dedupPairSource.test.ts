import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { resolvePairs } from './dedupPairSource';
import type { StoredPair, TextLocator } from './dedupPairSource';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

/** A repository and a ../shared/bench beside it, holding a plain and a gzipped file of our own text. */
const base = mkdtempSync(path.join(os.tmpdir(), 'engram-dedup-pairs-'));
const repo = path.join(base, 'repo');
const shared = path.join(base, 'shared', 'bench');
mkdirSync(repo);
mkdirSync(path.join(shared, 'talks'), { recursive: true });
const turn = 'The cache lives in Redis. It expires after ten minutes.';
writeFileSync(
  path.join(shared, 'talks', 'plain.json'),
  JSON.stringify([{ id: 'c1', turns: [{ turn: 'T1', text: turn }] }]),
);
writeFileSync(
  path.join(shared, 'talks', 'zipped.json.gz'),
  gzipSync(JSON.stringify({ notes: ['Use pnpm for installs.'] })),
);
after(() => rmSync(base, { recursive: true, force: true }));

const sentence: TextLocator = {
  file: '../shared/bench/talks/plain.json',
  path: [{ id: 'c1' }, 'turns', { turn: 'T1' }, 'text'],
  chars: [26, 55],
  sha1: sha1('It expires after ten minutes.'),
};
const whole: TextLocator = {
  file: '../shared/bench/talks/zipped.json.gz',
  path: ['notes', 0],
  sha1: sha1('Use pnpm for installs.'),
};
const pair = (a: TextLocator, b: TextLocator): StoredPair => ({ id: 7, a, b, label: 'keep', reason: 'r' });

describe('dedup pair locators', () => {
  it('reads a sentence of a string and a whole gzipped string, keeping label and reason', () => {
    const [resolved] = resolvePairs([pair(sentence, whole)], repo);
    assert.deepEqual(resolved, {
      id: 7,
      a: { text: 'It expires after ten minutes.' },
      b: { text: 'Use pnpm for installs.' },
      label: 'keep',
      reason: 'r',
    });
  });

  it('reads from --data instead of ../shared/bench', () => {
    const moved = path.join(base, 'elsewhere');
    mkdirSync(path.join(moved, 'talks'), { recursive: true });
    writeFileSync(
      path.join(moved, 'talks', 'zipped.json.gz'),
      gzipSync(JSON.stringify({ notes: ['Moved.'] })),
    );
    const [resolved] = resolvePairs(
      [pair({ ...whole, sha1: sha1('Moved.') }, { ...whole, sha1: sha1('Moved.') })],
      path.join(base, 'none'),
      moved,
    );
    assert.deepEqual([resolved!.a.text, resolved!.b.text], ['Moved.', 'Moved.']);
  });

  it('stops with one line naming the pair and side on a wrong hash, range, step or file', () => {
    const cases: Array<[TextLocator, RegExp]> = [
      [
        { ...sentence, sha1: sha1('other') },
        /^dedupPairs\.json pair #7 side b: the located text has sha1 \w+, expected/,
      ],
      [{ ...sentence, chars: [26, 99] }, /^dedupPairs\.json pair #7 side b: chars \[26, 99\] outside/],
      [
        { ...sentence, path: [{ id: 'c2' }, 'turns'] },
        /^dedupPairs\.json pair #7 side b: 0 elements match \{"id":"c2"\}/,
      ],
      [{ ...sentence, path: [{ id: 'c1' }, 'lines'] }, /^dedupPairs\.json pair #7 side b: no key "lines"/],
      [{ ...sentence, path: [{ id: 'c1' }] }, /^dedupPairs\.json pair #7 side b: path .* ends at a object/],
      [
        { ...sentence, file: '../shared/bench/talks/gone.json' },
        /^dedupPairs\.json pair #7 side b: .*gone\.json not found/,
      ],
    ];
    for (const [b, message] of cases) {
      assert.throws(
        () => resolvePairs([pair(whole, b)], repo),
        (error: Error) => message.test(error.message) && !error.message.includes('\n'),
      );
    }
  });
});
