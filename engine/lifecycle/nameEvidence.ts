import { isSentenceStart } from '../extract/scanContext';

/**
 * Whether some text writes `name` capitalised where a capital proves something: not where a
 * sentence starts. Extraction reads one memory at a time, so a chat's "Aww, so sweet!",
 * "Long time no see!" or "Appreciate it!" makes a name of a word that opens a sentence; across an
 * entity's memories, a real name also turns up inside a sentence ("Hey Caroline", "signed with
 * Nike") while an ordinary word never does, or less often than it writes it in lower case.
 */
export function showsAsName(name: string, texts: readonly string[]): boolean {
  const bare = name.replace(/['’]s$/, '');
  if (bare === '' || bare[0] === bare[0]!.toLowerCase()) return true;
  const lower = bare.toLowerCase();
  let inside = 0;
  let lowered = 0;
  for (const text of texts) {
    for (let at = text.indexOf(bare); at !== -1; at = text.indexOf(bare, at + 1))
      if (standsAsWord(text, at, bare.length) && !isSentenceStart(text, at)) inside++;
    for (let at = text.indexOf(lower); at !== -1; at = text.indexOf(lower, at + 1))
      if (standsAsWord(text, at, lower.length)) lowered++;
  }
  // Headings and titles capitalise ordinary words inside a line too ("Tips for Better Sleep"), but
  // the same texts then also write them in lower case; a name is written capitalised.
  return inside > lowered;
}

/** Whether the `length` characters at `at` are a whole word of `text`: "Max" in "Max ran", not in "Maxim". */
export function standsAsWord(text: string, at: number, length: number): boolean {
  const before = text[at - 1];
  const after = text[at + length];
  return (before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after));
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
