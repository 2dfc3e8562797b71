import assert from 'node:assert/strict';
import crypto, { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, mock } from 'node:test';
import { syntheticMemories } from '../bench/syntheticMemories';
import { openTestHost } from '../support/host';
import { seededRandom } from '../support/seededRandom';

/**
 * Recall's rankings on a fixed corpus, pinned by a fixture recorded from the code before recall's
 * cost was made flat in k (issue 17): a change meant to make recall cheaper must not change what
 * it returns. Ids take their random part from a seeded generator here, so ties (ordered by id) break
 * the same way in every run; results are compared as write positions. `ENGRAM_RECORD_RECALL_ORDER=1` rewrites the fixture (only for a change of ranking
 * that is meant, with its measurements).
 */
const FIXTURE = path.join(__dirname, 'fixtures', 'recallOrder.json');
const MEMORIES = 1500;

interface Case {
  query: string;
  k: number;
  options?: Record<string, unknown>;
}

/** The write position of every hit of each case, in the order recall returned them. */
type Recorded = Record<string, { top: number[]; count: number; sha256: string }>;

function cases(): Case[] {
  const sentences = syntheticMemories(12, 99).map((t) => t.split(' ').slice(2, 9).join(' '));
  const queries = [
    ...sentences,
    'Caroline',
    'what does Priya prefer for local development',
    'why was @acme/billing pinned',
    'src/auth/config.ts',
    'how do we run lint before pushing',
    'when did the redis retry get added',
  ];
  const out: Case[] = [];
  for (const query of queries) for (const k of [10, 100, 1000]) out.push({ query, k });
  // Filters, the session boost and single channels take other paths through the pool.
  out.push({ query: 'eslint config lives in src', k: 1000, options: { layer: 'episodic' } });
  out.push({ query: 'Nate added a retry', k: 1000, options: { session: 's3' } });
  out.push({ query: 'Nate added a retry', k: 10, options: { session: 's3' } });
  out.push({ query: 'Caroline', k: 1000, options: { channels: ['graph'] } });
  out.push({ query: 'Caroline docker', k: 1000, options: { channels: ['ppr'] } });
  out.push({ query: 'upgrade broke src/db', k: 1000, options: { includeInactive: true } });
  return out;
}

async function recordedOrders(): Promise<Recorded> {
  const random = seededRandom(17);
  mock.method(crypto, 'randomFillSync', (buffer: Buffer) => {
    for (let i = 0; i < buffer.length; i++) buffer[i] = Math.floor(random() * 256);
    return buffer;
  });
  const t = await openTestHost();
  const texts = syntheticMemories(MEMORIES, 5);
  const position = new Map<string, number>();
  for (let from = 0; from < MEMORIES; from += 500) {
    const memories = texts.slice(from, from + 500).map((content, j) => {
      const i = from + j;
      // Sessions for the neighbour channel, layers and importances for the boosts.
      const session = i % 3 === 0 ? { session: `s${Math.floor(i / 30)}` } : {};
      return { content, ...session, layer: i % 4 === 0 ? 'episodic' : 'semantic', importance: (i % 5) / 4 };
    });
    const results = await t.call('rememberMany', { memories });
    results.forEach((result, j) => {
      assert.ok('memory' in result, JSON.stringify(result));
      position.set(result.memory.id, from + j);
    });
  }
  // Some memories leave the active set: the pool's filtering must drop the same ones.
  const byPosition = [...position.keys()];
  for (let i = 7; i < MEMORIES; i += 97)
    await t.call('invalidate', { id: byPosition[i]!, reason: 'no longer true' });
  const out: Recorded = {};
  for (const c of cases()) {
    const { hits } = await t.call('recall', { query: c.query, k: c.k, ...c.options });
    const order = hits.map((hit) => position.get(hit.memory.id)!);
    out[`${c.query} | k=${c.k}${c.options ? ` ${JSON.stringify(c.options)}` : ''}`] = {
      top: order.slice(0, 10),
      count: order.length,
      sha256: createHash('sha256').update(order.join(',')).digest('hex'),
    };
  }
  await t.host.close();
  mock.restoreAll();
  return out;
}

describe('recall order', () => {
  it('returns the same memories in the same order as the recorded rankings (k = 10, 100, 1000)', async () => {
    const actual = await recordedOrders();
    if (process.env['ENGRAM_RECORD_RECALL_ORDER'] === '1')
      writeFileSync(FIXTURE, `${JSON.stringify(actual, null, 1)}\n`);
    const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Recorded;
    assert.deepEqual(Object.keys(actual), Object.keys(expected));
    for (const [name, want] of Object.entries(expected)) assert.deepEqual(actual[name], want, name);
    // The cases must reach deep lists, or they would not test the large-k path.
    assert.ok(Object.values(expected).some((r) => r.count > 500));
  });
});
