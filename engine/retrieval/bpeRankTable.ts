import { gunzipSync } from 'node:zlib';
/**
 * A byte-pair encoding's rank table in a form that loads without parsing: every token's bytes laid
 * end to end, its rank the index of its offset, and the hash table over them. gpt-tokenizer builds
 * a Map of 200k strings from a 2.4 MB JSON string at load, which was most of an MCP bridge's first
 * answer (~0.2-0.3 s of CPU of ~0.9 s at 10k memories, docs/benchmarks.md). Hashing the 200k
 * tokens at load still cost a bridge's first budgeted answer ~40 ms of cold code, so the build
 * stores the hash table too, and a load is one inflate and three views of its bytes.
 * scripts/tokenizerTable.mjs writes it at build as dist/lazy/o200k.bin (`encode`):
 * uint32 count, uint32 offsets[count + 1], int32 slots[slotCountFor(count)], then the bytes
 * (little-endian).
 */
export class BpeRankTable {
  /** Open addressing: rank + 1 per slot, 0 when empty; at most half full. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
    /** The hash table an earlier table's `slots` held (a stored table); else hashed here. */
    slots?: Int32Array,
  ) {
    const count = offsets.length - 1;
    const size = slotCountFor(count);
    if (slots && slots.length !== size)
      throw new Error(`not a rank table: ${slots.length} slots for ${count} tokens`);
    this.slots = slots ?? new Int32Array(size);
    this.mask = size - 1;
    if (slots) return;
    for (let rank = 0; rank < count; rank++) {
      const start = offsets[rank]!;
      const end = offsets[rank + 1]!;
      let slot = hashBytes(bytes, start, end) & this.mask;
      while (this.slots[slot] !== 0) {
        // Two ranks with the same bytes would make the lower one unreachable: refuse the table.
        if (this.equals(this.slots[slot]! - 1, bytes, start, end))
          throw new Error(`rank ${rank} repeats a token`);
        slot = (slot + 1) & this.mask;
      }
      this.slots[slot] = rank + 1;
    }
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  /** The table as decodeRankTable reads it (before the build gzips it). */
  encode(): Uint8Array {
    const count = this.size;
    const head = new Uint32Array(1 + count + 1);
    head[0] = count;
    head.set(this.offsets, 1);
    const file = new Uint8Array(head.byteLength + this.slots.byteLength + this.bytes.length);
    const view = new DataView(file.buffer);
    head.forEach((value, i) => view.setUint32(i * 4, value, true));
    this.slots.forEach((value, i) => view.setInt32(head.byteLength + i * 4, value, true));
    file.set(this.bytes, head.byteLength + this.slots.byteLength);
    return file;
  }

  /** The rank of `piece[start, end)`, or -1 when those bytes are no token. */
  rankOf(piece: Uint8Array, start: number, end: number): number {
    let slot = hashBytes(piece, start, end) & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      if (this.equals(entry - 1, piece, start, end)) return entry - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  private equals(rank: number, piece: Uint8Array, start: number, end: number): boolean {
    const from = this.offsets[rank]!;
    if (this.offsets[rank + 1]! - from !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (this.bytes[from + i] !== piece[start + i]) return false;
    return true;
  }
}

/** FNV-1a over the bytes. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/** Hash slots for `count` tokens: a power of two, at most half full. */
function slotCountFor(count: number): number {
  let size = 1;
  while (size < count * 2) size *= 2;
  return size;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The table from the file scripts/tokenizerTable.mjs writes, gzipped there to keep the installed
 * extension within its 40 MB budget (4.3 -> 2.1 MB; ~15 ms to inflate). Its numbers are read in place where the
 * machine is little-endian, as the file is.
 */
export function decodeRankTable(stored: Uint8Array): BpeRankTable {
  let file = stored[0] === 0x1f && stored[1] === 0x8b ? inflate(stored) : stored;
  // Typed arrays over the file need its start 4-byte aligned.
  if (file.byteOffset % 4 !== 0) file = file.slice();
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const count = file.byteLength >= 4 ? view.getUint32(0, true) : 0;
  const slotCount = slotCountFor(count);
  const bytesAt = 4 * (count + 2 + slotCount);
  if (count === 0 || file.byteLength < bytesAt) throw new Error('not a rank table: too short');
  const words = (at: number, length: number) => {
    if (LITTLE_ENDIAN) return new Uint32Array(file.buffer, file.byteOffset + at, length);
    const copy = new Uint32Array(length);
    for (let i = 0; i < length; i++) copy[i] = view.getUint32(at + i * 4, true);
    return copy;
  };
  const offsets = words(4, count + 1);
  const slotWords = words(4 * (count + 2), slotCount);
  const slots = new Int32Array(slotWords.buffer, slotWords.byteOffset, slotCount);
  const bytes = file.subarray(bytesAt);
  if (offsets[count] !== bytes.length) throw new Error('not a rank table: its offsets and bytes disagree');
  return new BpeRankTable(bytes, offsets, slots);
}

/**
 * A gzip file inflated into one buffer of its stated size (the trailer's last 4 bytes): in 16 KiB
 * pieces, as by default, the 4 MB table took ~20% more CPU, the last of it joining the pieces.
 */
function inflate(gzipped: Uint8Array): Buffer {
  const size = new DataView(gzipped.buffer, gzipped.byteOffset, gzipped.byteLength).getUint32(
    gzipped.byteLength - 4,
    true,
  );
  return gunzipSync(gzipped, { chunkSize: Math.max(64, size) });
}

/** The table from gpt-tokenizer's rank list (a token as its text, or as bytes when not UTF-8). */
export function rankTableFromRanks(ranks: ReadonlyArray<string | readonly number[]>): BpeRankTable {
  const encoded = ranks.map((token) =>
    typeof token === 'string' ? Buffer.from(token, 'utf8') : Uint8Array.from(token),
  );
  const offsets = new Uint32Array(encoded.length + 1);
  for (let i = 0; i < encoded.length; i++) offsets[i + 1] = offsets[i]! + encoded[i]!.length;
  const bytes = new Uint8Array(offsets[encoded.length]!);
  encoded.forEach((token, i) => bytes.set(token, offsets[i]));
  return new BpeRankTable(bytes, offsets);
}
