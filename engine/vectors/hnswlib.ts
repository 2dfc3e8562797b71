import type { Logger } from '../host';
import { withConsoleRouted } from './consoleRouting';

/**
 * The part of hnswlib-wasm@0.8.2 the engine uses, typed here because the package's own
 * declarations import `@types/emscripten`, which it does not depend on. Methods throw a
 * `WebAssembly.Exception` on native errors (see `nativeErrorMessage`).
 */
export interface NativeHnswIndex {
  initIndex(maxElements: number, m: number, efConstruction: number, seed: number): void;
  readIndex(filename: string, maxElements: number): void;
  /** Writes into the library's virtual file system and starts a sync to IndexedDB. */
  writeIndex(filename: string): void;
  resizeIndex(maxElements: number): void;
  addPoint(point: Float32Array, label: number, replaceDeleted: boolean): void;
  markDelete(label: number): void;
  unmarkDelete(label: number): void;
  searchKnn(
    query: Float32Array,
    k: number,
    filter: ((label: number) => boolean) | undefined,
  ): { distances: number[]; neighbors: number[] };
  getUsedLabels(): number[];
  getDeletedLabels(): number[];
  getCurrentCount(): number;
  getMaxElements(): number;
  setEfSearch(ef: number): void;
  /** Frees the C++ object (embind handles are not garbage collected). */
  delete(): void;
}

export interface HnswLibrary {
  HierarchicalNSW: new (
    space: 'ip' | 'cosine' | 'l2',
    dimension: number,
    autoSaveFile: string,
  ) => NativeHnswIndex;
  EmscriptenFileSystemManager: {
    syncFS(populateFromStorage: boolean, callback: undefined): void;
    isSynced(): boolean;
  };
  /** Called by the library's JS glue each time an IndexedDB sync finishes; hnswFiles.ts wraps it. */
  setIdbfsSynced(ok: boolean): void;
  getExceptionMessage?(error: unknown): [string, string];
}

/** Loads (once per thread) and returns hnswlib; injectable so tests and hosts can substitute it. */
export type HnswlibLoader = (logger: Logger) => Promise<HnswLibrary>;

let loading: Promise<HnswLibrary> | undefined;

/**
 * The bundled hnswlib-wasm, loaded once per thread. It is built for browsers, so Node needs two
 * shims: an `importScripts` global to pass its environment check (removed again afterwards so no
 * other library mistakes Node for a web worker) and an in-memory IndexedDB for its file system.
 * Its loader prints to console.log, and stdout is the MCP channel: loading runs with the console
 * routed to the logger.
 */
export const loadBundledHnswlib: HnswlibLoader = (logger) => {
  loading ??= load(logger).catch((error: unknown) => {
    loading = undefined; // let a later call retry
    throw error;
  });
  return loading;
};

async function load(logger: Logger): Promise<HnswLibrary> {
  if (typeof indexedDB === 'undefined') {
    // Only the one global IDBFS looks up (what fake-indexeddb/auto installs, minus the IDB* classes).
    const { indexedDB: fake } = await import('fake-indexeddb');
    Object.defineProperty(globalThis, 'indexedDB', { value: fake, configurable: true, writable: true });
  }
  return withConsoleRouted(logger, async () => {
    const scope = globalThis as { importScripts?: unknown };
    const shimmed = scope.importScripts === undefined;
    if (shimmed) scope.importScripts = () => {};
    try {
      const module = (await import('hnswlib-wasm/dist/hnswlib.js')) as unknown as {
        loadHnswlib(): Promise<HnswLibrary>;
      };
      return await module.loadHnswlib();
    } finally {
      if (shimmed) delete scope.importScripts;
    }
  });
}

/** The C++ message of a native exception, or the JS error's message. */
export function nativeErrorMessage(lib: HnswLibrary, error: unknown): string {
  if (error instanceof Error) return error.message;
  // A C++ exception arrives as a WebAssembly.Exception (not in TypeScript's lib yet).
  try {
    const [type, message] = lib.getExceptionMessage?.(error) ?? ['native', 'unknown error'];
    return `${type}: ${message}`;
  } catch {
    return 'native exception';
  }
}
