import {
  constants,
  monitorEventLoopDelay,
  PerformanceObserver,
  type PerformanceEntry,
} from 'node:perf_hooks';
import { round } from './stats';

/** What the event loop went through while a probe watched it. */
export interface LoopBlocks {
  /** The event loop's longest delay (ms): its longest block (both probes). */
  longestBlockMs: number;
  p99DelayMs: number;
  /** Event-loop blocks over 50 ms (the interval probe's gaps). */
  blocksOver50: number;
  /** Of those, the blocks that a garbage-collection pause of 10 ms or more overlapped. */
  blocksOver50WithGc: number;
  /** The longest garbage-collection pause while the probe ran (ms), and its kind. */
  longestGcMs: number;
  longestGcKind: string;
}

/**
 * Watches the event loop until `stop` is called: perf_hooks.monitorEventLoopDelay, and a second
 * probe, the longest gap between ticks of a 5 ms interval less the interval, with the collector's
 * pauses recorded to lay beside the gaps (why a block was long).
 */
export function watchEventLoop(): { stop(): LoopBlocks } {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let lastTick = performance.now();
  let longestGap = 0;
  const longBlocks: Array<[number, number]> = [];
  const gcPauses: PerformanceEntry[] = [];
  const gcWatch = new PerformanceObserver((list) => gcPauses.push(...list.getEntries()));
  gcWatch.observe({ entryTypes: ['gc'] });
  const probe = setInterval(() => {
    const tick = performance.now();
    if (tick - lastTick - 5 > 50) longBlocks.push([lastTick, tick]);
    longestGap = Math.max(longestGap, tick - lastTick - 5);
    lastTick = tick;
  }, 5);
  return {
    stop: () => {
      clearInterval(probe);
      delay.disable();
      gcWatch.disconnect();
      const pauses = gcPauses.filter((gc) => gc.duration >= 10);
      const longestGc = gcPauses.reduce<PerformanceEntry | undefined>(
        (longest, gc) => (!longest || gc.duration > longest.duration ? gc : longest),
        undefined,
      );
      return {
        longestBlockMs: round(Math.max(delay.max / 1e6, longestGap), 1),
        p99DelayMs: round(delay.percentile(99) / 1e6, 1),
        blocksOver50: longBlocks.length,
        blocksOver50WithGc: longBlocks.filter(([from, to]) =>
          pauses.some((gc) => gc.startTime < to && gc.startTime + gc.duration > from),
        ).length,
        longestGcMs: round(longestGc?.duration ?? 0, 1),
        longestGcKind: gcKind(longestGc),
      };
    },
  };
}

/** A collection's kind by Node's names (perf_hooks.constants.NODE_PERFORMANCE_GC_*). */
function gcKind(entry: PerformanceEntry | undefined): string {
  const detail = (entry as { detail?: unknown } | undefined)?.detail;
  const kind = (detail as { kind?: number } | undefined)?.kind;
  if (kind === undefined) return 'none';
  const name = Object.entries(constants).find(
    ([key, value]) => value === kind && /^NODE_PERFORMANCE_GC_[A-Z]+$/.test(key),
  )?.[0];
  return name ? name.slice('NODE_PERFORMANCE_GC_'.length).toLowerCase() : String(kind);
}
