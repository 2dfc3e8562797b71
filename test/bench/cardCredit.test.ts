import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditedDocs } from './lifecycleMeasures';
import type { CardLines } from './lifecycleMeasures';

/** A card about Caroline: one line per session, as storedPeerCards.ts writes them. */
const CARDS: CardLines = new Map([
  [
    'card-1',
    {
      entity: 'Caroline (name)',
      lines: [
        { line: 'Caroline: I signed up for a pottery class last week.', docs: ['s1'] },
        { line: 'Caroline: We went camping by the lake with the kids.', docs: ['s2'] },
        { line: 'Caroline: The pottery teacher liked my bowl.', docs: ['s3'] },
        { line: 'Caroline: Thanks, Melanie!', docs: ['s4'] },
      ],
    },
  ],
]);
const DOC_OF = new Map([['turn-9', ['s9']]]);

/*
 * Issue 21, section 6: the lifecycle bench's recall credits a hit with the sessions a reader finds
 * in it. A peer card quotes one line from each of several sessions; a question is answered by the
 * line that matches it, not by the five others.
 */
describe('lifecycle bench: a peer card is credited with the lines that matched the question', () => {
  it('credits the line sharing the most query terms, not every session the card quotes', () => {
    assert.deepEqual(creditedDocs('card-1', 'When did Caroline go camping?', DOC_OF, CARDS), ['s2']);
  });

  it('credits every line tied for the best match', () => {
    assert.deepEqual(creditedDocs('card-1', 'What did Caroline make in pottery?', DOC_OF, CARDS), [
      's1',
      's3',
    ]);
  });

  it("credits nothing when only the card's own entity matches", () => {
    assert.deepEqual(creditedDocs('card-1', 'What is Caroline’s favourite colour?', DOC_OF, CARDS), []);
  });

  it('credits a turn or a gist with what it quotes, whatever the question', () => {
    assert.deepEqual(creditedDocs('turn-9', 'anything at all', DOC_OF, CARDS), ['s9']);
  });
});
