// V8 keeps a script's source in memory for as long as the script lives, as one byte per character
// when every character is Latin-1 and two bytes otherwise. esbuild escapes non-ASCII characters in
// strings but leaves them in regular expression literals and comments, and one `’` in a regex made
// the whole 8 MB MCP bundle a 17 MB two-byte string in every process that loads it (measured with
// v8.getHeapSpaceStatistics: large_object space 17 MB -> 9 MB once escaped).
import { readFileSync, writeFileSync } from 'node:fs';

/** `\uXXXX` for one UTF-16 unit: valid in regular expressions (with or without /u), strings and comments. */
const escapeUnit = (unit) => `\\u${unit.toString(16).padStart(4, '0')}`;

/**
 * The JavaScript text with every non-ASCII character escaped. Characters outside the BMP become a
 * surrogate pair of escapes, which a /u regex reads as one code point. A non-ASCII character right
 * after a backslash (an identity escape such as `\’`) cannot be escaped this way; it is refused.
 */
export function asciiOnly(code, file = 'bundle') {
  return code.replace(/\P{ASCII}/gu, (char, offset) => {
    if (code[offset - 1] === '\\')
      throw new Error(`${file}: cannot escape ${JSON.stringify(char)} after a backslash at offset ${offset}`);
    return [...Array(char.length).keys()].map((i) => escapeUnit(char.charCodeAt(i))).join('');
  });
}

/** Rewrites a bundle on disk in place when it holds any non-ASCII character. */
export function makeBundleAscii(file) {
  const code = readFileSync(file, 'utf8');
  if (!/\P{ASCII}/u.test(code)) return;
  writeFileSync(file, asciiOnly(code, file));
}
