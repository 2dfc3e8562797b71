import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EntityType } from '../../engine/extract/entityTypes';
import { createMention } from '../../engine/extract/mention';
import type { Mention } from '../../engine/extract/mention';
import { resolveMentions } from '../../engine/extract/resolveMentions';
import { createScanContext } from '../../engine/extract/scanContext';

const TYPES: EntityType[] = [
  'url',
  'command',
  'file',
  'directory',
  'env',
  'date',
  'package',
  'tool',
  'symbol',
  'name',
];

function at(start: number, end: number, type: EntityType): Mention {
  return createMention(start, end, type, `${type}${start}`, `${type}:${start}:${end}`);
}

function spans(kept: readonly Mention[]): string[] {
  return kept.map((m) => `${m.type}@${m.start}-${m.end}`);
}

describe('resolveMentions', () => {
  const ctx = createScanContext('x'.repeat(200));

  test('the higher rank keeps an overlapped stretch, then the longer, then the first', () => {
    const kept = resolveMentions(ctx, [
      at(0, 10, 'symbol'),
      at(5, 15, 'file'),
      at(20, 25, 'tool'),
      at(20, 30, 'tool'),
    ]);
    assert.deepEqual(spans(kept), ['file@5-15', 'tool@20-30']);
  });

  test('a command keeps the tools, packages and files inside it', () => {
    const kept = resolveMentions(ctx, [
      at(0, 30, 'command'),
      at(0, 3, 'tool'),
      at(12, 20, 'file'),
      at(14, 16, 'symbol'),
    ]);
    assert.deepEqual(spans(kept), ['command@0-30', 'tool@0-3', 'file@12-20']);
  });

  test('a redaction marker takes no mention but a URL around it', () => {
    const text = 'see [REDACTED:token] and http://u:[REDACTED:password]@h/x';
    const marked = createScanContext(text);
    const marker = text.indexOf('[REDACTED:token]');
    const url = text.indexOf('http');
    const kept = resolveMentions(marked, [
      at(marker + 10, marker + 15, 'symbol'),
      at(url, text.length, 'url'),
    ]);
    assert.deepEqual(spans(kept), [`url@${url}-${text.length}`]);
  });

  test('pairwise checks and per-character ownership keep the same mentions', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    for (let round = 0; round < 300; round++) {
      const candidates: Mention[] = [];
      const count = 1 + random(40);
      for (let i = 0; i < count; i++) {
        const start = random(180);
        candidates.push(at(start, start + 1 + random(20), TYPES[random(TYPES.length)] as EntityType));
      }
      assert.deepEqual(
        spans(resolveMentions(ctx, candidates, Infinity)),
        spans(resolveMentions(ctx, candidates, 0)),
        `round ${round}`,
      );
    }
  });
});
