import { EngramError } from '../errors';

/**
 * Reads the labels, deletion marks and vectors straight out of hnswlib's serialized index, so a
 * loaded graph's bookkeeping and its exact-search mirror come from one pass over the bytes instead
 * of thousands of calls across the wasm boundary. The layout is hnswlib 0.7's saveIndex as built
 * for wasm32 (size_t is 4 bytes), pinned with hnswlib-wasm@0.8.2:
 *
 *   offsetLevel0 maxElements count sizePerElement labelOffset dataOffset (u32 x 6)
 *   maxLevel enterPoint maxM maxM0 M (u32 x 5) | mult (f64) | efConstruction (u32)
 *   then `count` elements of `sizePerElement` bytes: link list (u32 header whose third byte holds
 *   the deleted flag, then maxM0 u32 ids) | vector (f32 x dimension) | label (u32)
 *   then the upper-layer link lists.
 */
const HEADER_BYTES = 56;
const DELETED_FLAG = 0x01;

export interface HnswElements {
  count: number;
  /** The external label of each element slot. */
  labels: Uint32Array;
  /** 1 where the element is marked deleted. */
  deleted: Uint8Array;
  /** The vector of element `slot`: a view into the bytes when they are aligned, else a copy. */
  vector(slot: number): Float32Array;
}

export function readHnswElements(bytes: Uint8Array, dimension: number): HnswElements {
  if (bytes.byteLength < HEADER_BYTES) throw corrupt('shorter than its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (offset: number) => view.getUint32(offset, true);
  const [offsetLevel0, , count, sizePerElement, labelOffset, dataOffset] = [0, 4, 8, 12, 16, 20].map(u32) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (
    labelOffset - dataOffset !== dimension * 4 ||
    sizePerElement !== labelOffset + 4 ||
    offsetLevel0 !== 0
  ) {
    throw corrupt(`its element layout does not hold ${dimension}-dimensional vectors`);
  }
  if (HEADER_BYTES + count * sizePerElement > bytes.byteLength) throw corrupt('shorter than its elements');
  const labels = new Uint32Array(count);
  const deleted = new Uint8Array(count);
  for (let slot = 0; slot < count; slot++) {
    const base = HEADER_BYTES + slot * sizePerElement;
    labels[slot] = u32(base + labelOffset);
    deleted[slot] = view.getUint8(base + 2) & DELETED_FLAG;
  }
  // Elements are a multiple of 4 bytes long, so when the bytes start 4-byte aligned (they do when
  // they come from a file read or from hnswlib) the vectors are read in place.
  const floats =
    bytes.byteOffset % 4 === 0
      ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2)
      : null;
  const vector = (slot: number) => {
    const start = HEADER_BYTES + slot * sizePerElement + dataOffset;
    if (floats) return floats.subarray(start >> 2, (start >> 2) + dimension);
    return new Float32Array(bytes.slice(start, start + dimension * 4).buffer);
  };
  return { count, labels, deleted, vector };
}

function corrupt(what: string): EngramError {
  return new EngramError('CORRUPT', `the HNSW index bytes are not readable: ${what}`);
}
