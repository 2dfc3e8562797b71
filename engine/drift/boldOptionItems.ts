import type { ExtractedClaim } from './claimTypes';

type Partial = Omit<ExtractedClaim, 'negated'>;

/** "* __level:__ ...", "- **silent**: ...": an option named in bold at the start of a list item. */
const BOLD_ITEM_RE =
  /^[ \t]*[*+-][ \t]+(?:__|\*\*)([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*):?(?:__|\*\*):?[ \t]/gm;
/** One bold item is emphasis; a list of them documents options. */
const MIN_BOLD_ITEMS = 2;

/** Options named in bold in a list of them, as config keys (checked like any key without a file). */
export function matchBoldOptionItems(text: string, out: Partial[]): void {
  if (!text.includes('__') && !text.includes('**')) return;
  const items = [...text.matchAll(BOLD_ITEM_RE)];
  if (items.length < MIN_BOLD_ITEMS) return;
  for (const m of items) {
    const name = m[1] as string;
    const start = (m.index ?? 0) + m[0].indexOf(name);
    const span: [number, number] = [start, start + name.length];
    out.push({ kind: 'config', subject: name, span });
  }
}
