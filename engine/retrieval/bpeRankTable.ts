import { gunzipSync } from 'node:zlib';
/**
 * A byte-pair encoding's rank table in a form that loads without parsing: every token's bytes laid
 * end to end, its rank the index of its offset. gpt-tokenizer builds a Map of 200k strings from a
 * 2.4 MB JSON string at load, which was most of an MCP bridge's first answer (~0.2-0.3 s of CPU of
 * ~0.9 s at 10k memories, docs/benchmarks.md); this table is read as one buffer and hashed in a
 * few milliseconds. scripts/tokenizerTable.mjs writes it at build as dist/lazy/o200k.bin:
 * uint32 count, uint32 offsets[count + 1], then the bytes (little-endian).
 */
export class BpeRankTable {
  /** Open addressing: rank + 1 per slot, 0 when empty; at most a third full. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
  ) {
    const count = offsets.length - 1;
    let size = 1;
    while (size < count * 3) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
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

/**
 * The table from the file scripts/tokenizerTable.mjs writes, gzipped there to keep the installed
 * extension within its 40 MB budget (2.2 -> 1.2 MB; ~11 ms to inflate).
 */
export function decodeRankTable(stored: Uint8Array): BpeRankTable {
  const file = stored[0] === 0x1f && stored[1] === 0x8b ? gunzipSync(stored) : stored;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const count = view.getUint32(0, true);
  const offsets = new Uint32Array(count + 1);
  for (let i = 0; i <= count; i++) offsets[i] = view.getUint32(4 + i * 4, true);
  const bytes = file.subarray(4 + (count + 1) * 4);
  if (offsets[count] !== bytes.length) throw new Error('not a rank table: its offsets and bytes disagree');
  return new BpeRankTable(bytes, offsets);
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
