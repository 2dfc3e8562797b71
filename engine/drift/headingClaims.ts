import type { ExtractedClaim } from './claimTypes';

type Partial = Omit<ExtractedClaim, 'negated'>;

/**
 * What a memory taken from a Markdown document is about when its block does not say: the heading
 * right above it there. An option reference documents `#### serialization` and then, in a block
 * of its own, "Type: `string` / Default: `'json'`"; a method list has "* `del(key)`" and then,
 * indented, "Deletes a key out of the cache.". Read only when the block is the first under the
 * heading (blank lines and `<a name>` anchors aside), and only a heading that is a name: written
 * as code, or a lower-case identifier (`#### cwd`); "## Installation" names no part of the API.
 */
export interface SourceHeading {
  /** The name the heading documents, without a call's parameters: `serialization`, `del`. */
  name: string;
  /** Written as code with a parameter list (`del(key)`, `reset()`): a method. */
  call: boolean;
  /** Written as code (`` `itemCount` ``), not a plain word. */
  code: boolean;
}

const FENCE_RE = /^[ \t]*(```|~~~)/;
const ATX_RE = /^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/;
/** A list item that is only a name as code: "* `itemCount`", "- `del(key)`". */
const CODE_ITEM_RE = /^[ \t]*[*+-][ \t]+(`[^`\n]+`)[ \t]*$/;
const ANCHOR_RE = /^[ \t]*<a\s+(?:name|id)=[^>]*>\s*(?:<\/a>)?[ \t]*$/i;
const NAME = String.raw`\.?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*`;
const CODE_NAME_RE = new RegExp(String.raw`^\`(${NAME})(\([^)\`]*\))?\`$`);
const PLAIN_NAME_RE = new RegExp(String.raw`^(\.?[a-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\([^)]*\))?$`);

/**
 * The heading right above `start` in `doc` (a memory's block found there), or undefined when the
 * block is not the first under a heading that names something.
 */
export function headingAbove(doc: string, start: number): SourceHeading | undefined {
  const last = lineAbove(doc, start);
  if (last === undefined) return undefined;
  const heading = ATX_RE.exec(last)?.[1] ?? CODE_ITEM_RE.exec(last)?.[1];
  return heading === undefined ? undefined : headingName(heading.trim());
}

/**
 * The last line with text above `start` in `doc` (blank lines and `<a name>` anchors aside), or
 * undefined when there is none or `start` is inside a fenced block.
 */
export function lineAbove(doc: string, start: number): string | undefined {
  const lines = doc.slice(0, start).split('\n');
  lines.pop(); // the start of the memory's own first line
  let fenced = false;
  let last: string | undefined;
  for (const line of lines) {
    if (FENCE_RE.test(line)) fenced = !fenced;
    else if (!fenced && line.trim() !== '' && !ANCHOR_RE.test(line)) last = line;
  }
  return fenced ? undefined : last;
}

function headingName(text: string): SourceHeading | undefined {
  const code = CODE_NAME_RE.exec(text);
  if (code) return { name: (code[1] as string).replace(/^\./, ''), call: code[2] !== undefined, code: true };
  const plain = PLAIN_NAME_RE.exec(text);
  if (plain) return { name: (plain[1] as string).replace(/^\./, ''), call: false, code: false };
  return undefined;
}

/** A block that has a heading of its own names its subject itself. */
export function hasOwnHeading(text: string): boolean {
  return text.split('\n').some((line) => ATX_RE.test(line));
}

/** A description opens with a capitalised verb and goes on: "Deletes a key out of the cache." */
const DESCRIPTION_RE = /^\s*([A-Z][a-z]+)\b[ \t]+[a-z]/;

/**
 * "* `del(key)`" above "Deletes a key out of the cache.": the sentence describes the method, so it
 * claims the method. The claim stands on the sentence's verb, whose subject the heading is: the
 * rest of the sentence says what it does, which stays the memory's own (a rewrite or a judgement
 * of the whole memory never takes it for the name). A name written as code without parameters
 * (`itemCount`) is as often a property of another object: low confidence.
 */
export function headingSymbolClaim(text: string, heading: SourceHeading): Partial | undefined {
  if (!heading.code) return undefined;
  const sentence = DESCRIPTION_RE.exec(text);
  if (!sentence) return undefined;
  const verb = sentence[1] as string;
  const start = sentence[0].indexOf(verb);
  return {
    kind: 'symbol',
    subject: heading.name,
    span: [start, start + verb.length],
    ...(heading.call ? {} : { confidence: 'low' as const }),
  };
}

/** The option a heading documents, for a default its block states without naming it. */
export function headingOption(heading: SourceHeading | undefined): string | undefined {
  return heading === undefined || heading.call ? undefined : heading.name;
}
