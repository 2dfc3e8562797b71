import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  HAS_DOT,
  HAS_JOIN,
  HAS_OTHER,
  HAS_UNDERSCORE,
  HAS_UPPER,
  scanWords,
} from '../../engine/extract/wordScanner';

// The scanner stands in for this regex, which is simpler to read and about twice as slow.
const WORD_RE =
  /(?<![\p{L}\p{M}\p{N}_$.@/\\-])[\p{L}_][\p{L}\p{M}\p{N}_]*(?:['’-][\p{L}\p{M}\p{N}_]+|\.[\p{L}\p{N}][\p{L}\p{M}\p{N}_]*)*/gu;

function scanned(text: string): string[] {
  const words: string[] = [];
  scanWords(text, (start, end) => words.push(`${start}:${text.slice(start, end)}`));
  return words;
}

function matched(text: string): string[] {
  return [...text.matchAll(WORD_RE)].map((m) => `${m.index}:${m[0]}`);
}

describe('scanWords', () => {
  test('finds the words the reference regex finds, on hand-picked text', () => {
    const samples = [
      "Caroline's talk on node.js, lint-staged and don't-care flags; $HOME, .env, @scope/x, a/b, --verbose.",
      'Zoë and José García met 𝒜lice at the café; x.1 and 3d and _private and __init__.',
      'end. Next sentence…  trailing-  hyphen and apostrophe’ and dot. at end.',
      '',
      'a',
    ];
    for (const text of samples) assert.deepEqual(scanned(text), matched(text), text);
  });

  test('finds the words the reference regex finds, on random text', () => {
    const alphabet = [
      'a',
      'B',
      'z',
      '_',
      '1',
      '.',
      '-',
      "'",
      '’',
      '$',
      '@',
      '/',
      '\\',
      ' ',
      '\n',
      'é',
      'Ω',
      '̈',
      '𝒜',
      '٣',
      ',',
      '(',
    ];
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 3000; round++) {
      let text = '';
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      assert.deepEqual(scanned(text), matched(text), JSON.stringify(text));
    }
  });

  test('reports what each word holds', () => {
    const flags = new Map<string, number>();
    const text = "plain Upper snake_case node.js don't café";
    scanWords(text, (start, end, f) => flags.set(text.slice(start, end), f));
    assert.equal(
      (flags.get('plain') ?? 0) & (HAS_UPPER | HAS_UNDERSCORE | HAS_DOT | HAS_JOIN | HAS_OTHER),
      0,
    );
    assert.ok((flags.get('Upper') ?? 0) & HAS_UPPER);
    assert.ok((flags.get('snake_case') ?? 0) & HAS_UNDERSCORE);
    assert.ok((flags.get('node.js') ?? 0) & HAS_DOT);
    assert.ok((flags.get("don't") ?? 0) & HAS_JOIN);
    assert.ok((flags.get('café') ?? 0) & HAS_OTHER);
  });
});
