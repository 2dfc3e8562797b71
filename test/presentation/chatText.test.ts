import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Memory } from '../../engine/memory/types';
import { driftChatItem, memoryChatItem, openMemoryLink } from '../../extension/chat/chatText';
import { memoryFixture } from '../support/memoryFixture';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const ID = 'm_01JABCDEFGHJKMNPQRSTVWXYZ0';

function memory(overrides: Partial<Memory>): Memory {
  return memoryFixture({
    id: ID,
    kind: 'error-pattern',
    content: 'Retry the upload once\nS3 drops the first PUT after a deploy',
    validFrom: NOW - 2 * DAY,
    recordedAt: NOW - 2 * DAY,
    ...overrides,
  });
}

/** The item as a reader sees it: link targets (a command carrying the id) are not shown. */
const shown = (markdown: string) => markdown.replace(/\]\([^)]*\)/g, ']');

describe('@engram answers in the words of the views', () => {
  it('shows a memory as its first line, kind, age and source, then the rest of its words', () => {
    const item = memoryChatItem(
      memory({ source: { file: 'src/upload.ts', start: 1, end: 9 }, context: 'src/upload.ts:3-5' }),
      NOW,
    );
    assert.equal(
      shown(item),
      '- [Retry the upload once] · error pattern · 2 days ago · src/upload\\.ts:3\\-5  \n' +
        '   S3 drops the first PUT after a deploy\n',
    );
    assert.doesNotMatch(shown(item), /m_01J|0\.\d{3}/, 'no id, no score');
  });

  it('links the first line to Open Memory with the id as the argument, which chat renders as a link', () => {
    const item = memoryChatItem(memory({}), NOW);
    assert.ok(item.startsWith(`- [Retry the upload once](${openMemoryLink(ID)} "Open this memory")`));
    const args = /command:engram\.openMemory\?(\S+)/.exec(item)?.[1] ?? '';
    assert.deepEqual(JSON.parse(decodeURIComponent(args)), [ID]);
  });

  it('says pinned and "stale since <commit>", and numbers the items a model cites', () => {
    const item = memoryChatItem(memory({ pinned: true, content: 'One line' }), NOW, {
      marker: '2.',
      stale: { commit: '9f8e7d6c5b4a' },
    });
    assert.equal(shown(item), '2. [One line] · stale since 9f8e7d6 · error pattern · 2 days ago · pinned\n');
  });

  it('keeps untrusted words as text: markup and links in a memory do not become Markdown', () => {
    const item = memoryChatItem(memory({ content: '[click](command:evil) **bold** <img src=x>' }), NOW);
    assert.ok(item.startsWith('- [\\[click\\]\\(command:evil\\) \\*\\*bold\\*\\* \\<img src=x\\>]('));
    assert.equal(item.match(/\]\(command:/g)?.length, 1, "only Engram's own link is a link");
  });

  it('shows the whole words of a long first line after its cut title', () => {
    const long = `${'word '.repeat(30)}end`;
    const item = shown(memoryChatItem(memory({ content: long }), NOW));
    assert.match(item, /^- \[(word ){19}word…\]/);
    assert.match(item, /\n {3}(word ){30}end\n$/);
  });

  it('shows a drift finding as the words, "stale since <commit>", what changed and the commit message', () => {
    const item = driftChatItem({
      memoryId: ID,
      content: 'Sessions last 12 hours (src/auth/login.ts)',
      status: 'stale',
      reason: 'src/auth/login.ts no longer says 12 hours',
      evidence: { commit: '1a2b3c4d5e6f', date: '2026-03-09T10:00:00Z', message: 'Shorter sessions' },
    });
    assert.equal(
      shown(item),
      '- [Sessions last 12 hours \\(src/auth/login\\.ts\\)] · stale since 1a2b3c4 · ' +
        'src/auth/login\\.ts no longer says 12 hours · "Shorter sessions", 2026\\-03\\-09\n',
    );
    assert.match(item, /\(command:engram\.openMemory\?/);
    const moved = driftChatItem({
      memoryId: ID,
      content: 'login() is in src/auth/login.ts',
      status: 'moved',
      reason: 'login moved',
      evidence: { target: 'src/session/login.ts' },
    });
    assert.match(shown(moved), /\] · moved to src\/session\/login\\\.ts · login moved\n$/);
  });
});
