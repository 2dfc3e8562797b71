import type { Logger } from '../host';
import { withConsoleRouted } from './consoleRouting';
import type { HnswLibrary, NativeHnswIndex } from './hnswlib';

/**
 * Moves index bytes in and out of hnswlib-wasm, whose readIndex/writeIndex only know its virtual
 * file system: an Emscripten IDBFS mount at /hnswlib-index mirrored to IndexedDB (the
 * fake-indexeddb in Node). Out: writeIndex, wait for its sync, read the IndexedDB record. In: put
 * the record, sync IndexedDB -> memory, readIndex. Both then delete the record and sync again so
 * no copy of the index stays behind in memory.
 *
 * Two library quirks shape this. A sync mirrors a whole side onto the other (files missing on the
 * source side are deleted), so operations must not overlap: they run one at a time. And the
 * library's sync callback is a single slot that a second sync overwrites, so completion is counted
 * instead, by wrapping the `setIdbfsSynced` hook its JS glue calls at the end of every sync.
 */
const DATABASE = '/hnswlib-index';
const STORE = 'FILE_DATA';
/** IDBFS.DB_VERSION in hnswlib-wasm@0.8.2's Emscripten glue. */
const IDBFS_VERSION = 21;
/** S_IFREG | 0666: what MEMFS needs to recreate the record as a regular file. */
const REGULAR_FILE_MODE = 0o100666;

interface FileRecord {
  timestamp: Date;
  mode: number;
  contents: Uint8Array;
}

const systems = new WeakMap<HnswLibrary, HnswFileSystem>();

export class HnswFileSystem {
  private inFlight: number;
  private waiters: Array<() => void> = [];
  private queue: Promise<unknown> = Promise.resolve();
  private database: Promise<IDBDatabase> | undefined;
  private names = 0;

  private constructor(
    private readonly lib: HnswLibrary,
    private readonly logger: Logger,
  ) {
    // The mount's initial sync may still be running when the loader resolves.
    this.inFlight = lib.EmscriptenFileSystemManager.isSynced() ? 0 : 1;
    const original = lib.setIdbfsSynced.bind(lib);
    lib.setIdbfsSynced = (ok: boolean) => {
      try {
        original(ok);
      } finally {
        if (!ok) this.logger.warn('hnswlib file-system sync failed');
        this.inFlight = Math.max(0, this.inFlight - 1);
        if (this.inFlight === 0) for (const wake of this.waiters.splice(0)) wake();
      }
    };
  }

  /** The one file system of this library instance (one per thread). */
  static of(lib: HnswLibrary, logger: Logger): HnswFileSystem {
    let system = systems.get(lib);
    if (!system) {
      system = new HnswFileSystem(lib, logger);
      systems.set(lib, system);
    }
    return system;
  }

  /**
   * The serialized bytes of `index`. `onWritten` runs synchronously right after the native write,
   * so a caller can capture state that matches the bytes exactly.
   */
  extract(index: NativeHnswIndex, onWritten?: () => void): Promise<Uint8Array> {
    return this.exclusive(async () => {
      const name = this.nextName();
      index.writeIndex(name); // also starts a sync to IndexedDB
      this.inFlight++;
      onWritten?.();
      try {
        await this.settled();
        const record = await this.idb<FileRecord | undefined>('readonly', (store) => store.get(key(name)));
        if (!record?.contents) throw new Error('hnswlib wrote no index bytes');
        const bytes = record.contents;
        // A view into a larger buffer would carry the slack into transfers and files.
        return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      } finally {
        await this.idb('readwrite', (store) => store.delete(key(name)));
        await this.sync(true); // drops the in-memory copy: it is no longer in IndexedDB
      }
    });
  }

  /** Loads `bytes` (from `extract`) into `index`, reserving room for `maxElements`. */
  restore(index: NativeHnswIndex, bytes: Uint8Array, maxElements: number): Promise<void> {
    return this.exclusive(async () => {
      const name = this.nextName();
      const record: FileRecord = { timestamp: new Date(), mode: REGULAR_FILE_MODE, contents: bytes };
      await this.idb('readwrite', (store) => store.put(record, key(name)));
      try {
        await this.sync(true);
        index.readIndex(name, maxElements);
      } finally {
        await this.idb('readwrite', (store) => store.delete(key(name)));
        await this.sync(true);
      }
    });
  }

  private nextName(): string {
    return `engram-${++this.names}`;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() =>
      withConsoleRouted(this.logger, async () => {
        await this.settled(); // the mount's first sync, or anything a failed operation left running
        return fn();
      }),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sync(populateFromStorage: boolean): Promise<void> {
    this.inFlight++;
    try {
      this.lib.EmscriptenFileSystemManager.syncFS(populateFromStorage, undefined);
    } catch (error) {
      this.inFlight--;
      throw error;
    }
    await this.settled();
  }

  private settled(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private async idb<T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest): Promise<T> {
    this.database ??= openDatabase();
    const transaction = (await this.database).transaction(STORE, mode);
    const request = op(transaction.objectStore(STORE));
    return new Promise<T>((resolve, reject) => {
      transaction.oncomplete = () => resolve(request.result as T);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
    });
  }
}

function key(name: string): string {
  return `${DATABASE}/${name}`;
}

/**
 * Opens the database at the version and with the schema the library's IDBFS uses, so whichever
 * side opens it first, the other never triggers an upgrade (which our open connection would block).
 */
function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, IDBFS_VERSION);
    request.onupgradeneeded = () => {
      const store = request.result.objectStoreNames.contains(STORE)
        ? request.transaction!.objectStore(STORE)
        : request.result.createObjectStore(STORE);
      if (!store.indexNames.contains('timestamp'))
        store.createIndex('timestamp', 'timestamp', { unique: false });
    };
    request.onsuccess = () => {
      request.result.onversionchange = () => request.result.close();
      resolve(request.result);
    };
    request.onerror = () => reject(request.error ?? new Error(`cannot open IndexedDB ${DATABASE}`));
  });
}
