import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conflictSides } from '../../engine/team/conflictSides';

describe('conflict sides of a team file', () => {
  it('splits a merge conflict into our and their side, keeping the shared lines in both', () => {
    const text = ['a', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> origin/main', 'z'].join('\n');
    assert.deepEqual(conflictSides(text), { ours: 'a\nours\nz', theirs: 'a\ntheirs\nz' });
  });

  it('drops the base section of a diff3-style conflict', () => {
    const text = ['<<<<<<< ours', 'o', '||||||| base', 'b', '=======', 't', '>>>>>>> theirs'].join('\n');
    assert.deepEqual(conflictSides(text), { ours: 'o', theirs: 't' });
  });

  it('reads a file without complete markers as it is', () => {
    assert.equal(conflictSides('---\nid: x\n---\n\n======= is a heading rule here\n'), undefined);
    assert.equal(conflictSides('<<<<<<< HEAD\nours\n=======\ntheirs\n'), undefined);
  });
});
