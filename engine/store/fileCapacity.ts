import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';

/**
 * Room for an open database's file to grow without being copied.
 *
 * sql.js keeps the database file in Emscripten's MEMFS, which grows a file by allocating 1.125
 * times its size and copying it: at 100k memories (130-185 MB) every commit that crossed such a
 * step blocked the thread 90-140 ms (docs/benchmarks.md, "Consolidation throughput"). Here the
 * file's bytes live in a resizable ArrayBuffer that `ensure` grows in place, after each write, well
 * ahead of SQLite, so MEMFS always finds room and never copies. Growing in place only maps more
 * address space: the room costs RSS only once SQLite writes pages into it.
 *
 * The hook (sql.js 1.16): `new Database(bytes)` writes `bytes` into an empty MEMFS file, and
 * MEMFS's first write to an empty file keeps `bytes.slice(0, n)` as the file's contents, whose
 * `length` it reads as the capacity. `openDatabase` answers that one `slice` with a view that tracks
 * the resizable buffer's length. If a later sql.js stops calling it, or one transaction outgrows the
 * room and MEMFS copies the file elsewhere, the database works as before, only without the room:
 * `bytes` turns 0 and the buffer is let go. (A VACUUM, which shrinks the file, would also move
 * it unseen; the engine never runs one.)
 */
export class FileCapacity {
  private buffer: ResizableBuffer | undefined;

  private constructor(buffer: ResizableBuffer) {
    this.buffer = buffer;
  }

  /** The bytes MEMFS can hold before it would copy the file (0 once detached). */
  get bytes(): number {
    return this.buffer?.byteLength ?? 0;
  }

  /**
   * Call after a commit, with the file's size as SQLite counts it (page_count x page_size): keeps at
   * least `roomFor(fileBytes)` free ahead of it. Outside a transaction only: the file's header must
   * be the committed one, which is how this sees that MEMFS still writes into the buffer.
   */
  ensure(fileBytes: number): void {
    const buffer = this.buffer;
    if (!buffer) return;
    // MEMFS copies the file elsewhere only when a write goes past the buffer's end, so the file
    // then ends past it; the header is a second witness (a write of page 1 after such a copy
    // would leave it stale here). This buffer is then a stale copy: holding it would double the RSS.
    if (fileBytes > buffer.byteLength || headerBytes(buffer) !== fileBytes) {
      this.buffer = undefined;
      return;
    }
    if (buffer.byteLength - fileBytes >= roomFor(fileBytes) || buffer.byteLength === buffer.maxByteLength)
      return;
    buffer.resize(Math.min(buffer.maxByteLength, fileBytes + 2 * roomFor(fileBytes)));
  }

  /** Lets the buffer go (the database is closed; MEMFS dropped the file). */
  release(): void {
    this.buffer = undefined;
  }

  /** For openDatabase only. */
  static around(buffer: ResizableBuffer): FileCapacity {
    return new FileCapacity(buffer);
  }
}

/**
 * The free room `ensure` keeps ahead of a file of `fileBytes`: a quarter of it, at least 32 MiB, so
 * that one transaction does not outgrow it (a 1,000-memory batch adds a few MB). The reserved
 * total stays under 1.5 x the file + 64 MiB of address space.
 */
export function roomFor(fileBytes: number): number {
  return Math.max(32 * 1024 * 1024, Math.ceil(fileBytes / 4));
}

/**
 * Address space a file's buffer may grow to: 8 x the file opened, within [1 GiB, 4 GiB]. Past it,
 * MEMFS copies again, as without the room.
 */
function maxBytesFor(fileBytes: number): number {
  return Math.min(4 * 1024 ** 3, Math.max(1024 ** 3, 8 * fileBytes));
}

/** ES2024's resizable ArrayBuffer (Node 20, Electron), missing from the project's ES2022 lib. */
interface ResizableBuffer extends ArrayBuffer {
  /** False where the runtime ignored `maxByteLength` (no resizable buffers). */
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const ResizableBuffer = ArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => ResizableBuffer;

const capacities = new WeakMap<Database, FileCapacity>();

/** The room of a database opened by openDatabase, if its file sits in one. */
export function fileCapacity(db: Database): FileCapacity | undefined {
  return capacities.get(db);
}

/** A resizable buffer with `roomFor(fileBytes)` free after a file of `fileBytes`; none where refused. */
function bufferWithRoom(fileBytes: number): ResizableBuffer | undefined {
  try {
    const buffer = new ResizableBuffer(fileBytes + roomFor(fileBytes), {
      maxByteLength: maxBytesFor(fileBytes),
    });
    return buffer.resizable ? buffer : undefined;
  } catch {
    return undefined; // the address space was refused
  }
}

/**
 * A file's bytes read straight into a buffer with room to grow, for openDatabase to keep as the
 * database file: read into a Buffer first, every open held the file twice and copied it once more
 * (14 MB at 10k memories, a one-shot command's whole open is ~60 ms). Where resizable buffers are
 * refused, readFileSync's Buffer.
 */
export function readFileWithRoom(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buffer = bufferWithRoom(size);
    const bytes = buffer ? Buffer.from(buffer, 0, size) : Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) throw new Error(`${file} ended at byte ${read} of ${size} while it was read`);
      read += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * `new sql.Database(bytes)`, its file placed in a resizable buffer with `roomFor` free after it
 * (see FileCapacity): `bytes`' own buffer when readFileWithRoom gave it (no copy), else a new one.
 * Where resizable buffers are missing or refused, a plain database.
 */
export function openDatabase(sql: SqlJsStatic, bytes: Uint8Array): Database {
  let buffer: ResizableBuffer | undefined;
  const source = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  Object.defineProperty(source, 'slice', {
    value(start?: number, end?: number): Uint8Array {
      const part = bytes.subarray(start, end);
      const own = bytes.buffer as ResizableBuffer;
      const whole = part.byteOffset === 0 && part.length === bytes.length;
      buffer = whole && own.resizable && own.byteLength > part.length ? own : bufferWithRoom(part.length);
      if (!buffer) return part.slice(); // the copy MEMFS asked for, as sql.js alone does
      if (buffer === own) return new Uint8Array(buffer);
      // Without a length, the view tracks the buffer's length: MEMFS sees every resize as capacity.
      const view = new Uint8Array(buffer);
      view.set(part);
      return view;
    },
  });
  const db = new sql.Database(source);
  if (buffer && headerBytes(buffer) === bytes.length) capacities.set(db, FileCapacity.around(buffer));
  return db;
}

/** The database's size as SQLite counts it, for `ensure` where no prepared statement is at hand. */
export function databaseFileBytes(db: Database): number {
  const [pages, pageSize] = db
    .exec('PRAGMA page_count; PRAGMA page_size')
    .map((r) => Number(r.values[0]?.[0]));
  return (pages ?? 0) * (pageSize ?? 0);
}

/** The database's size as its header says (page count x page size, offsets 28 and 16). */
function headerBytes(buffer: ArrayBuffer): number {
  if (buffer.byteLength < 100) return -1;
  const header = new DataView(buffer, 0, 100);
  const pageSize = header.getUint16(16);
  return header.getUint32(28) * (pageSize === 1 ? 65536 : pageSize);
}
