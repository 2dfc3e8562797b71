import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Returns the garbage of a large reply to the system once the process has gone quiet.
 *
 * A whole-graph read at 10k entities builds rows, objects, a 4 MB text and a 5 MB frame; V8 promotes
 * much of it to the old generation and, with nothing allocated afterwards, never collects it: an idle
 * compat bridge stayed at 207 MB after 15 reads (heap 120 MB, of which 95 MB garbage), no lower
 * after 10 s, while one full collection brought it to 143 MB (docs/benchmarks.md, issue 16). V8's
 * own memory reducer does not run in Node without idle notifications, so the bridge collects once,
 * after `idleMs` without another large reply; a busy bridge never pays for it on a request.
 *
 * Large means 256 KiB: a whole graph of 1k entities is a 0.5 MB frame, and with 1 MiB nothing was
 * collected after the bench's reads at 1k (settled RSS 112-113 MB; collected, 101.7-101.8 MB).
 */
export const LARGE_REPLY_CHARS = 256 * 1024;
const IDLE_MS = 200;

export class IdleCollector {
  private timer: NodeJS.Timeout | undefined;
  /** Collections run so far (for tests and diagnostics). */
  collections = 0;

  constructor(
    private readonly collect: (() => void) | null = fullCollection(),
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Notes a reply of `chars` characters; a large one schedules a collection once idle. */
  noteReply(chars: number): void {
    if (this.collect === null) return;
    if (this.timer !== undefined) {
      // Any reply while one is pending pushes it back: collect only when the bridge is quiet.
      this.timer.refresh();
      return;
    }
    if (chars < LARGE_REPLY_CHARS) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.collections++;
      this.collect?.();
    }, this.idleMs);
    // A pending collection never keeps a process alive that has nothing else to do.
    this.timer.unref();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

let collector: (() => void) | null | undefined;

/**
 * V8's full collection, without starting Node with --expose-gc: the flag set for one moment and
 * the function taken from a fresh context (as jest's leak detector does), then the flag unset so
 * no other code sees a global `gc`. Null where V8 refuses, and then nothing is collected early.
 *
 * The collection also compacts: with --compact-on-every-full-gc set for it alone, V8 moves the
 * survivors out of the old generation's fragmented pages and gives those back. Whole-graph reads
 * leave a few live objects on many pages: after the bench's 15 reads at 10k entities the old
 * space kept 14.5-35.5 MB committed for 11 MB live (settled RSS 117.7-142 MB), compacted 11.5 MB
 * (117.6 MB both runs). The bridge is idle when it collects, so no call waits for the extra work.
 */
export function fullCollection(): (() => void) | null {
  if (collector !== undefined) return collector;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    // Called without options: on Node 20 `gc({ type: 'major' })` leaves the garbage in place.
    collector = typeof gc === 'function' ? compacting(gc as () => void) : null;
  } catch {
    collector = null;
  } finally {
    if (typeof (globalThis as { gc?: unknown }).gc !== 'function') v8.setFlagsFromString('--no-expose-gc');
  }
  return collector;
}

/** `gc` with V8 told to compact the old generation for this one collection. */
function compacting(gc: () => void): () => void {
  return () => {
    v8.setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      v8.setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}
