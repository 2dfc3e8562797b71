/**
 * Strips trailing characters without a `[...]+$` regex, which backtracks quadratically on a long
 * run of those characters that is not at the end.
 */
export function trimEndChars(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1] as string)) end--;
  return end === s.length ? s : s.slice(0, end);
}
