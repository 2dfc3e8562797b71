import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../engine/memory/limits';
import { openTestHost } from '../support/host';

const DAY = 24 * 60 * 60 * 1000;

/** A long turn of distinct, rare words: every sentence is informative to the gist rule. */
function longTurn(turn: number): string {
  const sentences = Array.from(
    { length: 60 },
    (_, s) =>
      `Step ${turn}x${s} tunes qz${turn}k${s} with vr${turn}m${s} before jw${turn}p${s} and lx${turn}d${s}.`,
  );
  return `assistant: ${sentences.join(' ')}`;
}

/*
 * Issue 21, section 3: a consolidated memory is a memory. A faded session of long turns (an
 * assistant's answers, as in LongMemEval) once made a gist past the content limit, and the
 * whole consolidation run failed.
 */
describe('consolidation: a gist fits the content limit', () => {
  it('consolidates a faded session of long turns, quoting what fits', async () => {
    const t = await openTestHost();
    const members: string[] = [];
    for (let turn = 0; turn < 12; turn++) {
      const { memory } = (await t.call('remember', {
        content: longTurn(turn),
        layer: 'episodic',
        dedupe: false,
        actor: { session: 'long-answers' },
      })) as { memory: { id: string } };
      members.push(memory.id);
    }
    assert.ok(
      12 * longTurn(0).length > DEFAULT_LIMITS.maxContentChars,
      'the turns together are over the limit',
    );
    t.clock.advance(60 * DAY);
    const done = (await t.call('consolidate', { dryRun: false })) as {
      created: string[];
      clusters: Array<{ members: string[]; quoted: string[]; summary: string }>;
    };
    assert.equal(done.created.length, 1);
    const [cluster] = done.clusters;
    assert.deepEqual(cluster!.members, members);
    assert.ok(cluster!.summary.length <= DEFAULT_LIMITS.maxContentChars, `${cluster!.summary.length}`);
    assert.ok(
      cluster!.quoted.length >= 1 && cluster!.quoted.length < members.length,
      `${cluster!.quoted.length}`,
    );
    assert.deepEqual(
      cluster!.quoted,
      members.slice(0, cluster!.quoted.length),
      'in order, the first that fit',
    );
    await t.host.close();
  });
});
