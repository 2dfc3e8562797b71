/**
 * Clauses that deny something ("there is no Redux", "the /admin endpoint was removed"): the claims
 * inside them must stay false. A clause ends at sentence punctuation followed by a blank, a
 * semicolon or a line break, so the dots of paths and versions never split one.
 */
const CLAUSE_END_RE = /[.!?](?=\s|$)|[;\n]|,\s+(?:but|while|whereas)\b/g;
const NEGATION_RE =
  /\b(?:there\s+(?:is|are)\s+no|there's\s+no|no\s+longer|not\s+used|(?:do|does|did)\s*(?:n't|\s+not)\s+(?:use|exist|have|ship|need)|never\s+use[sd]?|(?:was|were|has\s+been|have\s+been|got|is|are)\s+(?:removed|deleted|dropped|gone)|we\s+(?:removed|deleted|dropped)|got\s+rid\s+of|no\s+more|isn't\s+used|aren't\s+used)\b/i;

export function negatedRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = 0;
  const consider = (end: number) => {
    if (NEGATION_RE.test(text.slice(start, end))) ranges.push([start, end]);
  };
  CLAUSE_END_RE.lastIndex = 0;
  for (let m = CLAUSE_END_RE.exec(text); m !== null; m = CLAUSE_END_RE.exec(text)) {
    consider(m.index);
    start = m.index + m[0].length;
  }
  if (start < text.length) consider(text.length);
  return ranges;
}

export function isInside(ranges: ReadonlyArray<[number, number]>, at: number): boolean {
  return ranges.some(([start, end]) => at >= start && at < end);
}
