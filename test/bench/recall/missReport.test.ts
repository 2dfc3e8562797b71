import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missLines } from './missReport';

const query = {
  id: 'q1',
  text: 'How many games did I finish?',
  gold: ['g1', 'g2'],
  category: 'multi-session',
};
const texts = new Map([
  ['g1', 'I finished The Last of Us.\nIt took 25 hours.'],
  ['g2', 'Celeste took me 10 hours.'],
  ['d1', 'A stock forum thread about games.'],
]);

describe('the miss report of the recall bench', () => {
  it('says nothing when every gold document is in the top k', () => {
    assert.deepEqual(
      missLines(query, ['g2', 'd1', 'g1'], (id) => texts.get(id), 5),
      [],
    );
  });

  it('names the question, each gold document with its rank, and what ranked above it', () => {
    const lines = missLines(query, ['g1', 'd1', 'x', 'y', 'z', 'g2'], (id) => texts.get(id), 5);
    assert.equal(lines[0], '### q1 [multi-session] How many games did I finish?');
    assert.equal(lines[1], '  gold g1 rank 1: I finished The Last of Us. | It took 25 hours.');
    assert.equal(lines[2], '  gold g2 rank 6: Celeste took me 10 hours.');
    assert.equal(lines[3], '  #2 d1: A stock forum thread about games.');
    assert.equal(lines.length, 7, 'the four non-gold documents of the top 5');
  });

  it('marks a gold document that is not ranked at all', () => {
    const lines = missLines(query, ['d1'], (id) => texts.get(id), 5);
    assert.match(lines[1]!, /^ {2}gold g1 rank -: /);
  });
});
