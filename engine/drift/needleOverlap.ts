/**
 * Printing each match (`git grep -o`) reports one needle per stretch of text: the leftmost match,
 * and of the needles that start there the longest, then the search goes on after it. A needle
 * inside a longer one's match (`keepAliveTimeout` in `keepAliveTimeoutThreshold`) or overlapping
 * its end (`bar.baz` after `foo.bar` in `foo.bar.baz`) is then not reported for that stretch, so
 * a needle's files would depend on which other needles shared its batch, and batches depend on
 * timing. Here: needles inside a printed match are read back out of it, and needles that can
 * overlap one another's ends are searched in separate runs.
 */

/** Git's word characters (`-w`, and needlesPattern's boundaries). */
const WORD_CHAR_RE = /[A-Za-z0-9_]/;

/**
 * `needles` in groups within which no needle's end can overlap another's start (a proper suffix
 * of one is a proper prefix of the other): one `-o` search per group reports every occurrence of
 * each needle, once needles inside matches are read back (neededIn). Usually one group.
 */
export function overlapFreeGroups(needles: readonly string[]): string[][] {
  const byPrefix = new Map<string, string[]>();
  for (const needle of needles)
    for (let k = 1; k < needle.length; k++) {
      const prefix = needle.slice(0, k);
      const list = byPrefix.get(prefix);
      if (list) list.push(needle);
      else byPrefix.set(prefix, [needle]);
    }
  const clashes = new Map<string, Set<string>>();
  const clash = (a: string, b: string) => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = clashes.get(x);
      if (!set) clashes.set(x, (set = new Set()));
      set.add(y);
    }
  };
  for (const needle of needles)
    for (let k = 1; k < needle.length; k++)
      for (const other of byPrefix.get(needle.slice(needle.length - k)) ?? [])
        if (other !== needle) clash(needle, other);
  const groups: string[][] = [];
  for (const needle of needles) {
    const against = clashes.get(needle);
    const group = against ? groups.find((g) => !g.some((n) => against.has(n))) : groups[0];
    if (group) group.push(needle);
    else groups.push([needle]);
  }
  return groups;
}

/**
 * A function from a printed match to every needle of `needles` it holds (itself included), as
 * whole words when `wholeWord` (a match printed under `-w` already has no word character around it).
 */
export function neededIn(needles: readonly string[], wholeWord: boolean): (match: string) => string[] {
  const memo = new Map<string, string[]>();
  return (match) => {
    let found = memo.get(match);
    if (!found) {
      found = needles.filter((needle) => needle === match || holds(match, needle, wholeWord));
      if (!found.includes(match)) found.push(match);
      memo.set(match, found);
    }
    return found;
  };
}

function holds(text: string, needle: string, wholeWord: boolean): boolean {
  if (needle.length === 0 || needle.length > text.length) return false;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (!wholeWord) return true;
    const before = at === 0 ? '' : (text[at - 1] as string);
    const after = at + needle.length === text.length ? '' : (text[at + needle.length] as string);
    if (!WORD_CHAR_RE.test(before) && !WORD_CHAR_RE.test(after)) return true;
  }
  return false;
}
