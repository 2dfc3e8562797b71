/**
 * A SQLite database as its readers see it: the main file with the committed frames of its
 * write-ahead log applied (https://www.sqlite.org/fileformat2.html#the_write_ahead_log). OpenCode
 * keeps its database in WAL mode, and its newest rows stay in `-wal` until a checkpoint; sql.js
 * opens an image in memory and knows nothing of a WAL, so the log is applied here. A frame
 * counts when its salts match the log's header and the running checksum holds; pages are taken
 * up to the last commit frame, so a transaction still being written is left out.
 */
export function applyWal(main: Uint8Array, wal: Uint8Array | undefined): Uint8Array {
  const frames = wal === undefined ? undefined : committedFrames(wal);
  if (frames === undefined || frames.pages.size === 0) return main;
  const size = frames.dbPages * frames.pageSize;
  const image = new Uint8Array(size);
  image.set(main.subarray(0, Math.min(main.length, size)));
  for (const [page, at] of frames.pages) {
    const offset = (page - 1) * frames.pageSize;
    if (offset + frames.pageSize <= size)
      image.set((wal as Uint8Array).subarray(at, at + frames.pageSize), offset);
  }
  return image;
}

const MAGIC_LITTLE = 0x377f0682;
const MAGIC_BIG = 0x377f0683;
const HEADER = 32;
const FRAME_HEADER = 24;

interface Frames {
  pageSize: number;
  /** The database's size in pages after the last commit. */
  dbPages: number;
  /** Each page's latest committed content: its offset in the log. */
  pages: Map<number, number>;
}

function committedFrames(wal: Uint8Array): Frames | undefined {
  if (wal.length < HEADER) return undefined;
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if (magic !== MAGIC_LITTLE && magic !== MAGIC_BIG) return undefined;
  const bigEndian = magic === MAGIC_BIG;
  const rawSize = view.getUint32(8);
  const pageSize = rawSize === 1 ? 65536 : rawSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);
  let sum = checksum(view, 0, 24, bigEndian, [0, 0]);
  if (sum[0] !== view.getUint32(24) || sum[1] !== view.getUint32(28)) return undefined;
  const pending = new Map<number, number>();
  const committed = new Map<number, number>();
  let dbPages = 0;
  for (let at = HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
    sum = checksum(view, at, 8, bigEndian, sum);
    sum = checksum(view, at + FRAME_HEADER, pageSize, bigEndian, sum);
    if (sum[0] !== view.getUint32(at + 16) || sum[1] !== view.getUint32(at + 20)) break;
    pending.set(view.getUint32(at), at + FRAME_HEADER);
    const commitSize = view.getUint32(at + 4);
    if (commitSize !== 0) {
      for (const [page, offset] of pending) committed.set(page, offset);
      pending.clear();
      dbPages = commitSize;
    }
  }
  return { pageSize, dbPages, pages: committed };
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8) from `at`, continuing `sum`. */
function checksum(
  view: DataView,
  at: number,
  length: number,
  bigEndian: boolean,
  sum: [number, number],
): [number, number] {
  let [s0, s1] = sum;
  for (let i = at; i < at + length; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}
