/**
 * Scales `values` to unit length in a new Float32Array. Every provider normalises, whatever its model
 * returns, so that a dot product is the cosine similarity everywhere downstream.
 * A zero vector stays zero rather than becoming NaN.
 */
export function toUnitVector(values: ArrayLike<number>): Float32Array {
  const vector = Float32Array.from(values);
  let sumOfSquares = 0;
  for (const value of vector) sumOfSquares += value * value;
  const norm = Math.sqrt(sumOfSquares);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/** Cosine similarity of two unit vectors (their dot product). */
export function cosineOfUnitVectors(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vector lengths differ: ${a.length} and ${b.length}`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
