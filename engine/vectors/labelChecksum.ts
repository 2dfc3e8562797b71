/**
 * An order-independent checksum of a label set (sum and xor of mixed labels, 64 bits as hex), so
 * it can be computed from a Set, a SQL result or a native index without sorting. Two sets with the
 * same count and checksum are, for staleness detection, the same set.
 */
export function labelChecksum(labels: Iterable<number>): string {
  let sum = 0;
  let xor = 0;
  for (const label of labels) {
    const mixed = mix(label);
    sum = (sum + mixed) >>> 0;
    xor = (xor ^ mix(mixed ^ 0x9e3779b9)) >>> 0;
  }
  return hex(sum) + hex(xor);
}

/** MurmurHash3's 32-bit finaliser: every input bit flips about half the output bits. */
function mix(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}
