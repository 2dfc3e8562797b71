import { invalidInput } from '../errors';

/** hnswlib-wasm stores labels as uint32. */
const MAX_LABEL = 0xffff_ffff;
/** Squared norms this close to 1 are treated as already normalised (float32 rounding). */
const UNIT_TOLERANCE = 1e-5;

export function checkLabel(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_LABEL) {
    throw invalidInput(`a vector label must be an integer from 0 to ${MAX_LABEL}; got ${describe(value)}`);
  }
  return value;
}

/**
 * `vector` scaled to unit length (the same array when it already is), so that the inner product
 * the index computes is the cosine similarity. Rejects wrong lengths, NaN/Infinity and zero vectors
 * (whose cosine is undefined).
 */
export function unitVector(value: unknown, dimension: number, what: string): Float32Array {
  if (!(value instanceof Float32Array))
    throw invalidInput(`${what} must be a Float32Array; got ${describe(value)}`);
  if (value.length !== dimension) {
    throw invalidInput(`${what} must have ${dimension} dimensions; got ${value.length}`);
  }
  let squared = 0;
  for (let i = 0; i < dimension; i++) squared += value[i]! * value[i]!;
  if (!Number.isFinite(squared)) throw invalidInput(`${what} contains NaN or Infinity`);
  if (squared === 0) throw invalidInput(`${what} is all zeros; cosine similarity needs a direction`);
  if (Math.abs(squared - 1) <= UNIT_TOLERANCE) return value;
  const scale = 1 / Math.sqrt(squared);
  const unit = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) unit[i] = value[i]! * scale;
  return unit;
}

/** Validates a batch; a label given twice keeps its last vector, as sequential upserts would. */
export function checkItems(
  items: unknown,
  dimension: number,
): Array<{ label: number; vector: Float32Array }> {
  if (!Array.isArray(items))
    throw invalidInput(`add expects an array of { label, vector }; got ${describe(items)}`);
  const byLabel = new Map<number, Float32Array>();
  items.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) {
      throw invalidInput(`item ${i} must be { label, vector }; got ${describe(item)}`);
    }
    const { label, vector } = item as { label?: unknown; vector?: unknown };
    const checked = checkLabel(label);
    byLabel.delete(checked); // re-insert so the batch keeps the order of last occurrence
    byLabel.set(checked, unitVector(vector, dimension, `the vector of label ${checked}`));
  });
  return [...byLabel].map(([label, vector]) => ({ label, vector }));
}

export function checkLabels(labels: unknown): number[] {
  if (!Array.isArray(labels))
    throw invalidInput(`remove expects an array of labels; got ${describe(labels)}`);
  return labels.map(checkLabel);
}

export function checkK(k: unknown): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) {
    throw invalidInput(`k must be a whole number of results (0 or more); got ${describe(k)}`);
  }
  return k;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value)) return value.constructor.name;
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return `a ${typeof value}`;
}
