import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { watchEventLoop } from './loopProbe';
import type { LoopBlocks } from './loopProbe';
import { benchHostOptions, consolidationCorpus, corpusNow } from './consolidationCorpus';
import { round } from './stats';

/** Memories per `rememberMany` call: one call is one stretch of work on the thread. */
const BATCH = 20;
/** Journal compactions to watch: the first keeps little (see writesThroughCheckpoints). */
const COMPACTIONS = 2;
/** A run that sees no compaction by then reports what it saw. */
const MAX_CALLS = 20_000;

export interface CheckpointWrites extends LoopBlocks {
  memories: number;
  calls: number;
  remembered: number;
  compactions: number;
  /** The journal's bytes just before the last compaction finished, and just after (kept). */
  journalBeforeMb: number;
  journalKeptMb: number;
  cpuSeconds: number;
  wallSeconds: number;
  load: string;
}

/**
 * Writes through checkpoints (issue 21: the host's thread never blocked over 50 ms; issue 18): the
 * corpus of `count` memories opened as the extension host and the MCP bridge open a store
 * (checkpoints in a worker, the default 16 MiB journal limit), then batches of remembers, one call
 * per turn of the event loop, until two checkpoints have each ended with their journal compaction
 * (seen as the journal shrinking), with the event loop watched all along. The first checkpoint
 * starts at the first write (the corpus's journal is past the limit) and its compaction keeps
 * only what was written meanwhile; the second keeps the 16 MiB written since the first, plus what
 * came while it ran: a writer's usual case.
 */
export async function writesThroughCheckpoints(
  count: number,
  cacheDir: string,
  root: string,
): Promise<CheckpointWrites> {
  const dbPath = await consolidationCorpus(count, cacheDir, path.join(root, `writes-${count}`));
  const options = benchHostOptions(dbPath, () => corpusNow(count));
  const host = await EngineDispatcher.open({ ...options, snapshot: { idleMs: 3_600_000 } });
  try {
    const probe = watchEventLoop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const cpu = process.cpuUsage();
    const started = performance.now();
    let compactions = 0;
    let calls = 0;
    let journalBefore = host.store.db.stats().journalBytes;
    let journalKept = journalBefore;
    let lastJournal = journalBefore;
    while (compactions < COMPACTIONS && calls < MAX_CALLS) {
      const memories = Array.from({ length: BATCH }, (_, j) => ({
        content: noteText(calls * BATCH + j),
        layer: 'episodic',
        dedupe: false,
      }));
      await host.dispatch(
        'rememberMany',
        { memories },
        { requestId: `writes-${count}-${++calls}`, client: 'bench', local: true },
      );
      await new Promise((resolve) => setImmediate(resolve));
      const journal = host.store.db.stats().journalBytes;
      if (journal < lastJournal) {
        compactions++;
        journalBefore = lastJournal;
        journalKept = journal;
      }
      lastJournal = journal;
    }
    const used = process.cpuUsage(cpu);
    const wallSeconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const blocks = probe.stop();
    return {
      memories: count,
      calls,
      remembered: calls * BATCH,
      compactions,
      journalBeforeMb: round(journalBefore / 2 ** 20, 1),
      journalKeptMb: round(journalKept / 2 ** 20, 1),
      cpuSeconds: round((used.user + used.system) / 1e6, 1),
      wallSeconds: round(wallSeconds, 1),
      ...blocks,
      load: os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' '),
    };
  } finally {
    await host.close();
  }
}

/** Generated text that says nothing real, one file of its own per note. */
function noteText(i: number): string {
  return `Checkpoint note ${i}: the handler in src/notes${i % 97}/note${i}.ts retries ${1 + (i % 7)} times before it logs the failure.`;
}
