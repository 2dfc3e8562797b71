import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Memory } from '../../engine/memory/types';
import {
  ageOf,
  authorOf,
  memoryDocument,
  memorySummary,
  sourceLabel,
  staleLabel,
} from '../../extension/memoryText';
import { memoryFixture } from '../support/memoryFixture';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;

function memory(overrides: Partial<Memory>): Memory {
  return memoryFixture({
    id: 'm_01JABCDEFGHJKMNPQRSTVWXYZ0',
    kind: 'error-pattern',
    content: 'Retry the upload once\nThe second line',
    validFrom: NOW - 2 * DAY,
    recordedAt: NOW - 2 * DAY,
    ...overrides,
  });
}

describe('memory text in words', () => {
  it('says ages in the largest whole unit', () => {
    assert.equal(ageOf(NOW - 5_000, NOW), 'just now');
    assert.equal(ageOf(NOW - 60_000, NOW), '1 minute ago');
    assert.equal(ageOf(NOW - 3 * 3_600_000, NOW), '3 hours ago');
    assert.equal(ageOf(NOW - 2 * DAY, NOW), '2 days ago');
    assert.equal(ageOf(NOW - 15 * DAY, NOW), '2 weeks ago');
    assert.equal(ageOf(NOW - 400 * DAY, NOW), '1 year ago');
    // A clock a little behind another process's: not "-3 seconds ago".
    assert.equal(ageOf(NOW + 3_000, NOW), 'just now');
  });

  it('names the author: you, an agent by name, the scanner, an import', () => {
    assert.equal(authorOf({ agent: null, trust: 'human' }), 'you');
    assert.equal(authorOf({ agent: 'claude-code', trust: 'agent' }), 'claude-code');
    assert.equal(authorOf({ agent: 'engram-scanner', trust: 'ingest' }), 'a scan of the code');
    assert.equal(authorOf({ agent: null, trust: 'ingest' }), 'an import');
  });

  it('gives a selection its file and lines, a commit its short hash', () => {
    const selected = memory({ source: { file: 'src/a.ts', start: 10, end: 40 }, context: 'src/a.ts:3-5' });
    assert.equal(sourceLabel(selected), 'src/a.ts:3-5');
    assert.equal(sourceLabel(memory({ source: { file: 'src/a.ts' }, context: 'why: speed' })), 'src/a.ts');
    assert.equal(sourceLabel(memory({ source: { commit: '1a2b3c4d5e6f' } })), 'commit 1a2b3c4');
    assert.equal(sourceLabel(memory({})), undefined);
    assert.equal(staleLabel('9f8e7d6c5b4a'), 'stale since 9f8e7d6');
    assert.equal(staleLabel(undefined), 'stale');
  });

  it('describes a row by kind, age and source, with no id and no score', () => {
    const m = memory({
      source: { file: 'src/a.ts', start: 1, end: 2 },
      context: 'src/a.ts:3-3',
      tags: ['ts'],
    });
    assert.equal(memorySummary(m, NOW), 'error pattern · 2 days ago · src/a.ts:3-3 · #ts');
    assert.equal(
      memorySummary(memory({ status: 'invalidated' }), NOW),
      'invalidated · error pattern · 2 days ago',
    );
  });

  it('says whose a private memory is (other agents never see it, so the owner is told who does)', () => {
    assert.equal(
      memorySummary(memory({ scope: 'private', agent: 'claude-code' }), NOW),
      'error pattern · 2 days ago · private to claude-code',
    );
    assert.equal(
      memorySummary(memory({ scope: 'private', agent: null }), NOW),
      'error pattern · 2 days ago · private',
    );
  });

  it('calls negative knowledge by its name, not "negative"', () => {
    assert.equal(
      memorySummary(memory({ kind: 'negative', source: null, tags: [] }), NOW),
      'negative knowledge · 2 days ago',
    );
  });

  it('says each thing once in a scanned row: no path, kind or language the title already says', () => {
    const module = memory({
      kind: 'code-module',
      layer: 'codebase',
      agent: 'engram-scanner',
      content: 'src/auth/login.ts (typescript, 40 lines). exports: function login(user: string): Session',
      source: { file: 'src/auth/login.ts' },
      tags: ['code', 'module', 'typescript', 'security'],
    });
    assert.equal(memorySummary(module, NOW), 'code module · 2 days ago · #security');
    // A title cut before the path: the row still says where the memory comes from.
    const symbol = memory({
      kind: 'code-symbol',
      content: `function ${'x'.repeat(90)}() (function in src/long.ts:3)`,
      source: { file: 'src/long.ts' },
      tags: ['code', 'symbol', 'function'],
    });
    assert.equal(memorySummary(symbol, NOW), 'code symbol · 2 days ago · src/long.ts');
  });

  it('renders the memory document as prose: words, about, history, notes, the id last; no table', () => {
    const m = memory({ version: 2, content: 'Retry the upload twice', pinned: true, tags: ['net'] });
    const text = memoryDocument(
      m,
      [
        { version: 1, change: 'created', recordedAt: NOW - 2 * DAY, content: 'Retry the upload once' },
        { version: 2, change: 'edited', recordedAt: NOW - 3_600_000, content: 'Retry the upload twice' },
      ],
      [{ text: 'Only for S3', createdAt: NOW - DAY, agent: null }],
      NOW,
    );
    const lines = text.trimEnd().split('\n');
    assert.equal(lines[0], '# Retry the upload twice');
    assert.equal(lines[2], 'Retry the upload twice');
    assert.ok(
      lines.includes('error pattern in semantic memory · remembered 2 days ago by you · pinned · #net.'),
    );
    assert.ok(lines.includes('- Edited 1 hour ago (2026-03-10 11:00) (version 2): Retry the upload twice'));
    assert.ok(lines.includes('- Only for S3 (you, 1 day ago)'));
    assert.equal(lines.at(-1), 'Memory id: `m_01JABCDEFGHJKMNPQRSTVWXYZ0`');
    assert.ok(!text.includes('| field |') && !text.includes('importance'), text);
  });

  it('says in words what makes a memory important and whether it stays', () => {
    const factor = (name: 'base' | 'recency' | 'layer', contribution: number) => ({
      factor: name,
      value: 0,
      weight: 0,
      contribution,
    });
    const text = memoryDocument(memory({}), [], [], NOW, {
      memoryId: 'm_01JABCDEFGHJKMNPQRSTVWXYZ0',
      layer: 'semantic',
      trust: 'human',
      status: 'active',
      ageDays: 3,
      idleDays: 1,
      retention: 1,
      importance: {
        score: 0.55,
        factors: [factor('base', 0.15), factor('recency', 0.15), factor('layer', 0.05)],
      },
      archive: { due: false, unmet: ['3 of 90 days old'] },
    });
    assert.match(
      text,
      /## Importance\n\n0\.55 of 1, mostly its importance when written and how fresh it is; 100% retained\.\n\nKept: 3 of 90 days old\./,
    );
  });

  it('says why a memory is not active, first', () => {
    const text = memoryDocument(
      memory({ status: 'invalidated', statusReason: 'we moved to S3' }),
      [],
      [],
      NOW,
    );
    assert.match(
      text,
      /^# Retry the upload once\n\n\*\*invalidated\*\*: we moved to S3\n\nRetry the upload once/,
    );
  });
});
