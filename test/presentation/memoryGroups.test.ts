import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Memory } from '../../engine/memory/types';
import { NO_FILE, filterMessage, groupKeyOf, groupMemories } from '../../extension/memoryGroups';
import { memoryFixture } from '../support/memoryFixture';

/** Local noon on a day of March 2026: the grouping is by the user's calendar day. */
const noon = (day: number) => new Date(2026, 2, day, 12).getTime();
const NOW = noon(10);

function memory(id: string, overrides: Partial<Memory>): Memory {
  return memoryFixture({ id, validFrom: NOW, recordedAt: NOW, ...overrides });
}

const MEMORIES = [
  memory('a', { kind: 'decision', source: { file: 'src/b.ts' }, validFrom: NOW - 60_000 }),
  memory('b', { kind: 'note', validFrom: noon(9) }),
  memory('c', { kind: 'decision', source: { file: 'src/a.ts' }, validFrom: noon(2) }),
  memory('d', { kind: 'code-module', layer: 'codebase', source: { file: 'src/a.ts' }, validFrom: noon(9) }),
];

const shape = (by: Parameters<typeof groupMemories>[1]) =>
  groupMemories(MEMORIES, by, NOW).map((g) => [g.label, g.memories.map((m) => m.id).join('')]);

describe('the Memories view groups', () => {
  it('by kind: kinds as words, in name order, each keeping the order it was given', () => {
    assert.deepEqual(shape('kind'), [
      ['code module', 'd'],
      ['decision', 'ac'],
      ['note', 'b'],
    ]);
  });

  it('by file: paths in name order, memories that name no file last', () => {
    assert.deepEqual(shape('file'), [
      ['src/a.ts', 'cd'],
      ['src/b.ts', 'a'],
      [NO_FILE, 'b'],
    ]);
  });

  it('by day: newest first, Today and Yesterday in words, older days by date', () => {
    const days = shape('day');
    assert.deepEqual(
      days.map(([, ids]) => ids),
      ['a', 'bd', 'c'],
    );
    assert.equal(days[0]?.[0], 'Today');
    assert.equal(days[1]?.[0], 'Yesterday');
    assert.match(days[2]?.[0] ?? '', /Mar 2, 2026/);
  });

  it('by layer: in the layers own order, not by name', () => {
    assert.deepEqual(
      shape('layer').map(([label]) => label),
      ['semantic', 'codebase'],
    );
  });

  it("a memory's group key is the key of the group it is listed under", () => {
    for (const by of ['kind', 'file', 'day', 'layer'] as const)
      for (const group of groupMemories(MEMORIES, by, NOW))
        for (const m of group.memories) assert.equal(groupKeyOf(m, by), group.key);
  });

  it('says a filter is on, with how many of how many it shows', () => {
    assert.equal(filterMessage('auth', 12, 340), 'Filtered: "auth" (12 of 340)');
  });
});
