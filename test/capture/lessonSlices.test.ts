import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeLessons } from '../../engine/capture/capturedMemory';
import type { SessionLesson } from '../../engine/capture/capturedMemory';
import { openTestHost } from '../support/host';

test('writing a long session`s lessons gives the event loop a turn every few milliseconds', async () => {
  const t = await openTestHost();
  try {
    t.host.store.write((tx) =>
      tx.run("INSERT INTO capture_sessions (id, agent, source) VALUES ('long', 'claude-code', 'f.jsonl')"),
    );
    const lessons: SessionLesson[] = Array.from({ length: 300 }, (_, i) => ({
      content: `\`npm test -- p${i}\` failed (exit 1); \`TZ=UTC npm test -- p${i}\` worked.`,
      layer: 'procedural',
      kind: 'procedure',
      rule: 'recovery',
      importance: 0.5,
    }));
    // Turns the event loop took while the lessons were written (counted, not timed: a timed
    // assertion fails on a busy machine). 300 remembers take several 15 ms slices anywhere;
    // written in one piece, the loop gets no turn until the write is over.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const written = await writeLessons(t.host.store, ['long'], () => lessons);
    ticking = false;
    assert.equal(written, 300);
    assert.ok(turns >= 3, `the event loop had ${turns} turns while 300 lessons were written`);
  } finally {
    await t.host.close();
  }
});
