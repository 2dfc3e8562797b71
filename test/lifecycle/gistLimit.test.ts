import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GIST_RULE, termRarity, writeGist } from '../../engine/lifecycle/gist';
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
 * whole consolidation run failed; since, a long turn is quoted within a span of its own.
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
    // Each long turn is quoted by its most telling sentences within the span, so every turn fits.
    assert.deepEqual(cluster!.quoted, members, 'every turn quoted, in order');
    assert.ok(
      cluster!.summary.length <= members.length * (GIST_RULE.memberChars + 'assistant: '.length + 1),
      `${cluster!.summary.length}`,
    );
    await t.host.close();
  });

  it("quotes a long turn by its telling sentences within the span, and a person's short turn whole", () => {
    const filler = (i: number) => `On day ${i} you could see stops ${i}a, ${i}b, ${i}c and ${i}d.`;
    const long = [
      ...Array.from({ length: 12 }, (_, i) => filler(i)),
      'The Quinta da Regaleira tickets cost 12 euros.',
      ...Array.from({ length: 12 }, (_, i) => filler(i + 12)),
    ].join(' ');
    const short = 'user: I booked the hotel in Sintra for the 14th of May, near the old palace.';
    const members = [
      { id: 'a', content: short },
      { id: 'b', content: `assistant: ${long}` },
      ...Array.from({ length: 8 }, (_, i) => ({
        id: `o${i}`,
        content: 'user: Thanks, that sounds good to me.',
      })),
    ];
    const gist = writeGist(members, termRarity(members.map((m) => m.content)), ['Quinta da Regaleira']);
    assert.deepEqual(gist.quoted, ['a', 'b']);
    assert.ok(gist.text.startsWith(`${short} assistant:`), gist.text);
    const quotedOfLong = gist.text.slice(short.length + ' assistant: '.length);
    assert.ok(quotedOfLong.length <= GIST_RULE.memberChars, `${quotedOfLong.length}: ${quotedOfLong}`);
    assert.ok(quotedOfLong.includes('The Quinta da Regaleira tickets cost 12 euros.'), quotedOfLong);
  });
});
