/**
 * Calls `visit` for each match of a global regex, from the start of the text. Unlike
 * `String.prototype.matchAll` it does not clone the regex on every call, which shows on the hot
 * path of extraction.
 */
export function forEachMatch(re: RegExp, text: string, visit: (m: RegExpExecArray) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) re.lastIndex++;
    visit(m);
  }
}
