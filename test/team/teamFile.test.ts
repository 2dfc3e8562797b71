import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTeamFile, renderTeamFile } from '../../engine/team/teamFile';
import type { TeamEntry } from '../../engine/team/teamFile';

const ENTRY: TeamEntry = {
  id: 'm_01kf0hj080qv2grhma9j',
  version: 3,
  kind: 'decision',
  layer: 'semantic',
  tags: ['build', 'has "quotes"'],
  validFrom: Date.parse('2026-01-15T10:00:00Z'),
  validTo: Date.parse('2026-02-01T00:00:00Z'),
  author: 'Ada Lovelace',
  supersedes: ['m_old'],
  supersededBy: 'm_new',
  reason: 'replaced by the esbuild decision',
  claims: ['path src/build.ts'],
  content: 'We bundle with rollup.\n\nSecond paragraph: see `src/build.ts`.',
};

describe('the team file format', () => {
  it('reads back what it writes, every field', () => {
    const text = renderTeamFile(ENTRY);
    assert.deepEqual(parseTeamFile(text, 'x.md'), ENTRY);
    assert.equal(renderTeamFile(parseTeamFile(text, 'x.md')), text, 'the same entry gives the same bytes');
    assert.doesNotMatch(text, / $/m, 'no line ends in a space');
  });

  it('reads a file with Windows line endings and empty optional fields', () => {
    const text = renderTeamFile({ ...ENTRY, validTo: null, supersededBy: null, reason: null, author: null });
    assert.match(text, /^valid_to:$/m);
    assert.doesNotMatch(text, / $/m, 'an empty field has no trailing space (editors strip it)');
    const parsed = parseTeamFile(text.replace(/\n/g, '\r\n'), 'x.md');
    assert.deepEqual(
      [parsed.validTo, parsed.supersededBy, parsed.reason, parsed.author],
      [null, null, null, null],
    );
  });

  it('refuses a bad field with a one-line error naming the file, the field and what it held', () => {
    const text = renderTeamFile(ENTRY);
    const cases: Array<[string, string, RegExp]> = [
      ['kind: decision', 'kind: opinion', /^x\.md: kind must be one of fact, .*, got "opinion"$/],
      ['version: 3', 'version: two', /^x\.md: version must be a whole number >= 1, got "two"$/],
      [
        'valid_from: 2026-01-15T10:00:00.000Z',
        'valid_from: soon',
        /^x\.md: valid_from must be an ISO time, got "soon"$/,
      ],
      [
        'tags: ["build","has \\"quotes\\""]',
        'tags: build',
        /^x\.md: tags must be a list like \["a", "b"\], got "build"$/,
      ],
      [
        'id: m_01kf0hj080qv2grhma9j',
        'id: ../etc',
        /^x\.md: id must be letters, digits, _ or -, got "\.\.\/etc"$/,
      ],
    ];
    for (const [from, to, message] of cases) {
      assert.ok(text.includes(from), from);
      assert.throws(
        () => parseTeamFile(text.replace(from, to), 'x.md'),
        (error: Error) => message.test(error.message),
      );
    }
    assert.throws(
      () => parseTeamFile(text.replace(/---\n\n[^]*$/, '---\n\n'), 'x.md'),
      /the memory's text .* is empty/,
    );
  });
});
