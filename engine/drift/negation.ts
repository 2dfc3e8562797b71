/**
 * What a text denies ("there is no Redux", "the /admin endpoint was removed"): the claims inside
 * a denial must stay false. A denial reaches only its object or its subject inside one clause:
 * "there are no discrepancies in `README.md`" denies discrepancies, not the file, and "`url`
 * doesn't need to be specified" denies nothing. A clause ends at sentence punctuation followed by
 * a blank, a semicolon or a line break, so the dots of paths and versions never split one.
 */
const CLAUSE_END_RE = /[.!?](?=\s|$)|[;\n]|,\s+(?:but|while|whereas)\b/g;
const ADVERB = String.raw`(?:\s+(?:now|completely|fully|entirely|since|recently|already|finally|also))?`;
/**
 * Triggers whose denied thing follows: "there is no X", "we no longer use X", "does not use X".
 * "No longer needs X" denies a need, which says the project dropped a package but not that a flag
 * or a function is gone ("`--timeout 99999999` is no longer needed"): NEED denials are kept apart.
 */
const objectDenial = (need: string) =>
  new RegExp(
    String.raw`\b(?:there\s+(?:is|are)\s+no|there's\s+no|no\s+longer\s+(?:uses?|ships?|has|have|depends\s+on|supports?${need})|(?:do|does|did)\s*(?:n't|\s+not)\s+(?:use|ship|have(?!\s+to\b)|depend\s+on)|never\s+use[sd]?|got\s+rid\s+of|(?:we|i)\s+(?:removed|deleted|dropped)|(?:removed|deleted|dropped|gone)\s*,?\s+(?:along|together)\s+with|no\s+more|without)\b`,
    'gi',
  );
/** Triggers whose denied thing comes before: "X was removed", "X is no longer used", "X isn't used". */
const subjectDenial = (need: string) =>
  new RegExp(
    String.raw`\b(?:(?:was|were|has\s+been|have\s+been|is|are|got)${ADVERB}\s+(?:removed|deleted|dropped|gone)|(?:is|are)\s+no\s+longer\s+(?:used|supported|available|there|present${need})|(?:isn't|aren't|is\s+not|are\s+not)\s+used\s+(?:any\s*more|anywhere)|(?:was|were)\s+never\s+used)\b`,
    'gi',
  );
const EXISTENCE = { object: objectDenial(''), subject: subjectDenial('') };
const EXISTENCE_OR_NEED = { object: objectDenial(String.raw`|needs?`), subject: subjectDenial('|needed') };
/** How far an object denial reaches: "there is no `X`", "no longer uses the `X` package". */
const OBJECT_REACH = 48;
/** Where a denied noun phrase ends: "no discrepancies | in README.md", "without X | and adds Y". */
const PHRASE_END_RE =
  /\s(?:in|of|on|at|for|from|with|between|across|to|that|which|when|where|because|so|if|as|(?:and|or|but)\s+(?:adds?|sets?|uses?|creates?|writes?|makes?|keeps?|includes?|returns?|runs?|has|have|is|are|will|can|then))\b/i;

/** Words that open a subordinate or relative clause: a denial after one is about that clause's subject. */
const SUBORDINATOR_RE =
  /\b(?:when(?:ever)?|if|unless|once|until|after|before|because|since|while|where|that|which|who|whose)\b/gi;

/** A relative pronoun right before a denial: the denial is about what it refers to. */
const RELATIVE_BEFORE_RE = /\b(?:that|which|who|whose)\s*$/i;
/** A verb of running or using right before "without", or a gerund right after it. */
const WAY_BEFORE_RE =
  /\b(?:run|runs|ran|running|call|calls|called|invoke[ds]?|invoked|use[ds]?|start(?:s|ed)?|build|built)\s*$/i;
const WAY_AFTER_RE = /^\s+(?:using|calling|running|passing|setting|specifying)\b/i;

/** What comes before an imperative "do not": nothing, the reader, or a recommendation. */
const ADVICE_BEFORE_RE = /(?:^|\byou|\bplease|\bto|\brecommend(?:ed)?(?:\s+that)?|\bshould)\s*$/i;

/** A clause opened as a supposition: what it denies is only supposed. */
const SUPPOSITION_RE = /\b(?:if|unless|whether)\b/i;

/**
 * The stretches of `text` a denial covers. With `need`, denials of a need count too ("no longer
 * needs X", "X is no longer needed"): right for dependencies, wrong for flags and functions.
 */
export function negatedRanges(text: string, need = false): Array<[number, number]> {
  const denials = need ? EXISTENCE_OR_NEED : EXISTENCE;
  const ranges: Array<[number, number]> = [];
  let start = 0;
  const consider = (end: number) => {
    const clause = text.slice(start, end);
    for (const m of clause.matchAll(denials.object)) {
      const before = clause.slice(0, m.index);
      // "If the plugin doesn't use X, ...": a supposition, not a statement about the project.
      if (SUPPOSITION_RE.test(before)) continue;
      // "packages that do not have a `version` field": about the relative clause's subject.
      if (RELATIVE_BEFORE_RE.test(before)) continue;
      // "Run without `--call`", "without using `npm ls -l`": a way of running, not an absence.
      if (
        /^without$/i.test(m[0]) &&
        (WAY_BEFORE_RE.test(before) || WAY_AFTER_RE.test(clause.slice(m.index + m[0].length)))
      )
        continue;
      // "Without `combineReducers()`, X wins": a clause opened by "without" sets a condition.
      if (/^without$/i.test(m[0]) && /^\s*$/.test(before)) continue;
      // "Do not use `X` unless you have to", "say you don't use X": advice or a supposition.
      if (/^do(?:n't|\b)/i.test(m[0]) && ADVICE_BEFORE_RE.test(before)) continue;
      const from = start + m.index + m[0].length;
      const reach = text.slice(from, Math.min(end, from + OBJECT_REACH));
      const stop = PHRASE_END_RE.exec(reach.slice(1));
      ranges.push([from, from + (stop ? stop.index + 1 : reach.length)]);
    }
    for (const m of clause.matchAll(denials.subject)) {
      // "`dispose` is called on items when they are dropped": the denial's subject is what
      // follows the last subordinating word before it ("they"), not the item the clause is about.
      const before = clause.slice(0, m.index);
      let from = 0;
      for (const word of before.matchAll(SUBORDINATOR_RE)) from = word.index + word[0].length;
      // "When calling `setEventListener`, the handler is removed": the main clause starts after
      // the comma that closes the subordinate one.
      if (from > 0) {
        const comma = before.indexOf(',', from);
        if (comma !== -1) from = comma + 1;
      }
      ranges.push([start + from, start + m.index]);
    }
  };
  CLAUSE_END_RE.lastIndex = 0;
  for (let m = CLAUSE_END_RE.exec(text); m !== null; m = CLAUSE_END_RE.exec(text)) {
    consider(m.index);
    start = m.index + m[0].length;
  }
  if (start < text.length) consider(text.length);
  return [...ranges, ...deniedLists(text)];
}

/**
 * "the following properties are not implemented at this moment:" then a list: the denial is about
 * the items below, not about anything in its own clause (which names none). Only a line that
 * announces "the following" and denies them, ending in a colon, and only the list right under it
 * (in the same text, or the memory's own block when the line stands above it in its document).
 */
const DENIED_LIST_INTRO = String.raw`^[^\n]*\bthe\s+following\b[^\n:]*\b(?:is|are)\s+(?:not|no\s+longer)(?:\s+(?:yet|currently))?\s+(?:implemented|supported|available|provided)\b[^\n:]*:[ \t]*$`;
const LIST_ITEM_RE = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\S/;

/** Whether a line announces a list of things the project does not have. */
export function deniesFollowingList(line: string): boolean {
  return new RegExp(DENIED_LIST_INTRO, 'i').test(line);
}

function deniedLists(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const intro = new RegExp(DENIED_LIST_INTRO, 'gim');
  for (let m = intro.exec(text); m !== null; m = intro.exec(text)) {
    const lineEnd = m.index + m[0].length;
    if (lineEnd >= text.length) continue;
    let at = lineEnd + 1;
    // One blank line may stand between the announcement and its list.
    const blank = /^[ \t]*\n/.exec(text.slice(at));
    if (blank) at += blank[0].length;
    const list = listAt(text, at);
    if (list) ranges.push(list);
  }
  return ranges;
}

/** The list items that start at `at`, one after another, as one range (undefined: no list there). */
export function listAt(text: string, at: number): [number, number] | undefined {
  let end = at;
  while (end < text.length) {
    const lineEnd = text.indexOf('\n', end);
    if (!LIST_ITEM_RE.test(text.slice(end, lineEnd === -1 ? text.length : lineEnd))) break;
    end = lineEnd === -1 ? text.length : lineEnd + 1;
  }
  return end > at ? [at, end] : undefined;
}

export function isInside(ranges: ReadonlyArray<[number, number]>, at: number): boolean {
  return ranges.some(([start, end]) => at >= start && at < end);
}
