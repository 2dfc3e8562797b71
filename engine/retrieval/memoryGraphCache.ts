import type { ReadLater } from '../lexical/liveLexicalIndex';
import type { SqlReader } from '../store/sqlAccess';
import { GraphLinkRead } from './graphLinks';
import { MemoryGraph } from './memoryGraph';

/** The database as the background build sees it: the last commit, and whether a write is open. */
export interface GraphDatabase {
  readonly lastSeq: number;
  readonly inWrite: boolean;
}

/** Rows read per background slice: ~10-20 ms of the thread at a time (10k memories have ~30k links). */
const BACKGROUND_SLICE_ROWS = 10_000;

interface BackgroundBuild {
  read: GraphLinkRead;
  /** The transaction the slices read so far reflect; a commit since then starts the build over. */
  seq: number;
}

/**
 * Keeps one MemoryGraph per database, rebuilt when writes made it stale. Small graphs rebuild on
 * every change; large ones at most every `maxAgeMs`, since a ranking signal a second old is fine.
 * A host builds the graph in the background from open (`buildInBackground`): the first recall
 * whose query names an entity paid the whole build (at 10k memories 30k links, 0.1-0.35 s on a
 * loaded machine; 100k, 3.3 s); one that comes before the build is done finishes it, reading only
 * what is left.
 */
export class MemoryGraphCache {
  private graph: MemoryGraph | undefined;
  private builtAt = 0;
  private building: BackgroundBuild | undefined;
  private readonly waiting: Array<() => void> = [];
  /** Full builds on a recall's path (one-read loads and finished background builds alike). */
  loadsOnRecall = 0;

  constructor(private readonly maxAgeMs = 1000) {}

  get(reader: SqlReader, seq: number, now: number): MemoryGraph {
    const graph = this.graph;
    const stale = !graph || graph.seq !== seq;
    const small = !graph || graph.entityMemories.length < 20_000;
    if (stale && (small || now - this.builtAt >= this.maxAgeMs)) {
      this.loadsOnRecall++;
      this.graph = this.finishBuild(reader, seq) ?? MemoryGraph.load(reader, seq);
      this.builtAt = now;
    }
    return this.graph!;
  }

  /**
   * Builds the graph in slices between other work (a host, at open); `readLater` reads outside any
   * caller's read, `clock` dates the build for `maxAgeMs`.
   */
  buildInBackground(db: GraphDatabase, readLater: ReadLater, clock: () => number): void {
    if (this.building) return;
    const build: BackgroundBuild = { read: new GraphLinkRead(), seq: db.lastSeq };
    this.building = build;
    const step = (): void => {
      if (this.building !== build) return; // finished by a recall, or replaced
      if (this.graph?.seq === db.lastSeq) return this.stop();
      // A write in progress may still be rolled back: read once it is over.
      if (db.inWrite) return void setImmediate(step);
      if (db.lastSeq !== build.seq) {
        build.read = new GraphLinkRead();
        build.seq = db.lastSeq;
      }
      try {
        readLater((r) => build.read.step(r, BACKGROUND_SLICE_ROWS));
      } catch {
        return this.stop(); // closed: nothing left to build for
      }
      if (!build.read.done) return void setImmediate(step);
      this.graph = MemoryGraph.fromLinks(build.read.links(), build.seq);
      this.builtAt = clock();
      this.stop();
    };
    setImmediate(step);
  }

  /** Resolves once no background build is running (tests, benchmarks). */
  ready(): Promise<void> {
    if (!this.building) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The background build's graph, its remaining slices read now; undefined if it is of another seq. */
  private finishBuild(reader: SqlReader, seq: number): MemoryGraph | undefined {
    const build = this.building;
    if (!build || build.seq !== seq) return undefined;
    while (!build.read.done) build.read.step(reader, -1);
    this.stop();
    return MemoryGraph.fromLinks(build.read.links(), seq);
  }

  private stop(): void {
    this.building = undefined;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
