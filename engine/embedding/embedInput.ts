import { EngramError } from '../errors';

/** Validates `embed()`'s argument at the boundary, naming the first bad element. */
export function assertTexts(texts: unknown): asserts texts is string[] {
  if (!Array.isArray(texts)) {
    throw new EngramError('INVALID_INPUT', `embed() expects an array of strings, got ${describe(texts)}`);
  }
  const bad = texts.findIndex((text) => typeof text !== 'string');
  if (bad >= 0) {
    throw new EngramError(
      'INVALID_INPUT',
      `embed() expects strings, texts[${bad}] is ${describe(texts[bad])}`,
    );
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value;
}
