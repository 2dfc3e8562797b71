/** Vectors are stored as little-endian float32 BLOBs (what a Float32Array's bytes are on x86 and ARM). */
export function vectorToBlob(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function vectorFromBlob(blob: Uint8Array): Float32Array {
  // Copy: sql.js reuses its buffers, and a Float32Array view needs 4-byte alignment.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}
