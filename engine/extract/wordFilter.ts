/**
 * A cheap pre-check before a set or map lookup on the hot path: most words fail it on their
 * first character, last character and length, without hashing a freshly sliced string. False
 * positives are possible (the lookup follows), false negatives are not.
 */
export class WordFilter {
  /** Per (first char, last char) pair, a bit per word length (lengths of 31 and more share one). */
  private readonly lengths = new Uint32Array(128 * 128);

  constructor(words: Iterable<string>) {
    for (const word of words) {
      const slot = WordFilter.slot(word);
      if (slot !== undefined)
        this.lengths[slot] = ((this.lengths[slot] as number) | WordFilter.bit(word)) >>> 0;
    }
  }

  mayContain(word: string): boolean {
    return this.mayContainRange(word, 0, word.length);
  }

  /** mayContain for `text.slice(start, end)`, without slicing. */
  mayContainRange(text: string, start: number, end: number): boolean {
    const first = text.charCodeAt(start);
    const last = text.charCodeAt(end - 1);
    if (first >= 128 || last >= 128) return true;
    return ((this.lengths[first * 128 + last] as number) & ((1 << Math.min(end - start, 31)) >>> 0)) !== 0;
  }

  /** undefined for words beyond ASCII at either end: those are never filtered out. */
  private static slot(word: string): number | undefined {
    const first = word.charCodeAt(0);
    const last = word.charCodeAt(word.length - 1);
    return first < 128 && last < 128 ? first * 128 + last : undefined;
  }

  private static bit(word: string): number {
    return (1 << Math.min(word.length, 31)) >>> 0;
  }
}
