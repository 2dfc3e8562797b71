// Entities of prose in a memory's text (engine/extract/entities.ts): dates, people and other names,
// and the capitalised words that are none.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertNone, entity, keysOf, mentions } from './entityQueries';

describe('dates', () => {
  test('ISO and written forms share an ISO key', () => {
    const text =
      'Released 2024-05-07; the RC was 7 May 2023, the beta May 8, 2023, the alpha 9th of May 2023.';
    for (const key of ['2024-05-07', '2023-05-07', '2023-05-08', '2023-05-09'])
      assert.equal(entity(text, key).type, 'date');
  });

  test('a time in front belongs to the mention but not the key', () => {
    const text = '8:56 pm on 20 July, 2023 Caroline: I went to a support group.';
    const e = entity(text, '2023-07-20');
    assert.equal(e.name, '2023-07-20');
    assert.deepEqual(mentions(text, e), ['8:56 pm on 20 July, 2023']);
  });

  test('the same day written twice is one entity', () => {
    const text = 'On 20 July 2023 we shipped; 2023-07-20 was a Thursday.';
    assert.equal(entity(text, '2023-07-20').spans.length, 2);
  });

  test('months with a year, days without one', () => {
    assert.equal(entity('It started in May 2023.', '2023-05').type, 'date');
    assert.equal(entity('Her birthday is on July 4.', '--07-04').type, 'date');
  });

  test('relative and impossible dates are not extracted', () => {
    assert.deepEqual(keysOf('yesterday, last week, tomorrow, 2023-02-30, 31 June 2023', 'date'), []);
  });
});

describe('names and people', () => {
  test('capitalised names, multi-word names and possessive disease names', () => {
    const text = "Caroline met Melanie Smith; her mom has Alzheimer's.";
    assert.equal(entity(text, 'caroline').type, 'name');
    assert.equal(entity(text, 'melanie smith').name, 'Melanie Smith');
    assert.equal(entity(text, 'alzheimer').name, "Alzheimer's");
  });

  test('stopwords, months, weekdays and sentence-initial verbs are not names', () => {
    const text =
      'The team met. However, I think so. On Monday in May we fixed it. Fixed the parser. Added tests. Finally done.';
    assert.deepEqual(keysOf(text, 'name'), []);
  });

  test('a possessive and a plain mention merge under the plain name', () => {
    const text = "Caroline's talk went well. Everyone thanked Caroline.";
    const e = entity(text, 'caroline');
    assert.equal(e.name, 'Caroline');
    assert.deepEqual(e.aliases, ["Caroline's"]);
    assert.equal(e.spans.length, 2);
  });

  test('speaker labels, honorifics, relations and speech verbs make a person', () => {
    const text = 'Caroline: Hey!\nI met Dr. Alvarez and my best friend Priya; Sam said hi.';
    for (const key of ['caroline', 'alvarez', 'priya', 'sam'])
      assert.equal(entity(text, key).type, 'person', key);
  });

  test('a person is named without the possessive', () => {
    const e = entity("I visited my friend Anna's house.", 'anna');
    assert.equal(e.type, 'person');
    assert.equal(e.name, 'Anna');
  });

  test('non-ASCII names', () => {
    assert.equal(entity('We asked Zoë and José García.', 'josé garcía').type, 'name');
  });

  test('capitalised words in code are not names', () => {
    assert.deepEqual(keysOf('Use `new Promise(Resolve)` here.', 'name'), []);
  });
});

/**
 * Issue 19: words a position capitalises, taken for names ("Session" as a person, "Touches", "Add",
 * "Pr" in the Graph). The texts are the kinds of memory that produced them: a scanned symbol's
 * summary with its doc comment, a glossary kept with Remember Selection, a merge note, a quick note.
 */
describe('ordinary words capitalised by their position are not names', () => {
  test('a doc comment that opens with a verb: "Touches the session cookie"', () => {
    const text =
      'export function refreshSession(token: string): Promise<void> (function in src/auth/session.ts:12). Touches the session cookie and extends its expiry';
    assertNone(text, 'touches');
    assert.equal(entity(text, 'src/auth/session.ts').type, 'file');
  });

  test('a change note: "Touches src/api/routes.ts and src/api/server.ts"', () => {
    const text = 'Renamed the router to apiRouter. Touches src/api/routes.ts and src/api/server.ts';
    assertNone(text, 'touches');
    assert.equal(entity(text, 'src/api/routes.ts').type, 'file');
  });

  test('a glossary line is not a speaker: "Session: a signed cookie that holds the user id"', () => {
    const text =
      'Session: a signed cookie that holds the user id\nExpiration: twelve hours, set in src/auth/login.ts';
    assertNone(text, 'session');
    assertNone(text, 'expiration');
  });

  test('a word after an opening bracket or a table bar: "(Add retry to the fetch client)"', () => {
    assertNone('Merged #42 (Add retry to the fetch client) into main after review.', 'add');
    assertNone('| Change | Owner |\n| Add retry | Caroline |', 'add');
  });

  test('a word without a vowel is an abbreviation: "Pr #118 bumps zod"', () => {
    assertNone('Pr #118 bumps zod to 3.23 and regenerates the lockfile.', 'pr');
    assertNone('Ask Caroline before merging any Pr that touches the schema.', 'pr');
  });

  test('names in the same places still are names', () => {
    const text =
      'Caroline decided that sessions last 12 hours.\nMelanie: I moved the config.\n(Priya agreed.) | Sam | Dr. Alvarez reviewed it.\nJennings said the build is green.';
    for (const key of ['caroline', 'melanie', 'priya', 'sam', 'alvarez', 'jennings']) entity(text, key);
    assert.equal(entity(text, 'melanie').type, 'person');
  });
});
