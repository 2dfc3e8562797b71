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
    // The longest the event loop waited for its next turn while the lessons were written.
    let last = performance.now();
    let longest = 0;
    let ticking = true;
    const tick = () => {
      longest = Math.max(longest, performance.now() - last);
      last = performance.now();
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const started = performance.now();
    const written = await writeLessons(t.host.store, ['long'], () => lessons);
    const ms = performance.now() - started;
    ticking = false;
    assert.equal(written, 300);
    // Slices of 15 ms and the one remember that ends each (a few ms; more on a loaded machine).
    // Without slices, the whole write (300 to 1,000 ms here) is one wait.
    assert.ok(longest < 100, `the event loop waited ${longest.toFixed(0)} ms at once in ${ms.toFixed(0)} ms`);
  } finally {
    await t.host.close();
  }
});
