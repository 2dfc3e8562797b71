import { closeSync, openSync, readSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** Below glibc's initial mmap threshold (128 KiB), so no read buffer moves it. */
const PIECE_BYTES = 64 * 1024;

/**
 * Node's own compile step for CommonJS text: the module's require, its import() calls and stack
 * traces work as under `require`. Not in Node's typings but public in use (ts-node, pirates);
 * vm.compileFunction would need an experimental flag (and prints a warning) for the bundle's import().
 */
interface CompilableModule extends Module {
  _compile(content: string, filename: string): unknown;
}

/**
 * Requires the CommonJS bundle `specifier` (relative to `directory`) as `require` would, reading
 * it in 64 KiB pieces. Node's `require` reads a file into one native string that doubles as it
 * grows: 1, 2, then 4 MB for the 2.4 MB dist/engineCore.js. Freeing those raises glibc's dynamic
 * mmap threshold to 4 MB and its trim threshold to 8 MB for the rest of the process, so every
 * malloc arena then keeps up to 8 MB of freed memory resident: the compat MCP bridge held ~3.5 MB
 * more RSS after the bench's 1k-entity workload (its thread arenas 6.5 MB against 3.3 MB, the main
 * heap 9.8 MB against 7.1 MB; /proc/<pid>/smaps and glibc's `mp_`, docs/benchmarks.md).
 */
export function requireBundle(directory: string, specifier: string): unknown {
  const file = path.resolve(directory, specifier);
  const requireHere = createRequire(file);
  const cached = requireHere.cache[file];
  if (cached) return cached.exports;
  const source = readInPieces(file);
  const bundle = new Module(file) as CompilableModule;
  bundle.filename = file;
  // Where its bare requires look (node_modules up from its directory), as Node sets for a file it loads.
  bundle.paths = requireHere.resolve.paths('engram') ?? [];
  requireHere.cache[file] = bundle;
  try {
    bundle._compile(source, file);
  } catch (error) {
    delete requireHere.cache[file];
    throw error;
  }
  bundle.loaded = true;
  return bundle.exports;
}

function readInPieces(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const piece = Buffer.allocUnsafe(PIECE_BYTES);
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    for (let read; (read = readSync(fd, piece, 0, PIECE_BYTES, null)) > 0;)
      parts.push(decoder.write(piece.subarray(0, read)));
    parts.push(decoder.end());
    return parts.join('');
  } finally {
    closeSync(fd);
  }
}
