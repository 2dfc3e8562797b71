import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClaimCheck, ExtractedClaim } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { FileReader } from './fileHistory';
import { SET_CODEC } from './gitHistory';
import type { AnswerCodec } from './historyStore';
import type { VerificationContext } from './verificationContext';
import { resolveClaimPath } from './workspacePaths';

type Partial = Omit<ExtractedClaim, 'negated'>;

/** `[browser support](#running-mocha-in-the-browser)`: a link to a section of the same document. */
const SECTION_LINK_RE = /\]\((#[^\s()#]{1,200})\)/g;
const MARKDOWN_RE = /\.(?:md|markdown|mdx)$/i;
/** Fewer sections than this: losing most of them may be one feature's removal, not a move. */
const MIN_SECTIONS_TO_REORGANISE = 6;

/**
 * Links to a section of the document the memory was taken from claim that the section exists:
 * a heading removed or renamed leaves the memory pointing at nothing.
 */
export function matchSectionLinks(text: string, out: Partial[]): void {
  if (!text.includes('](#')) return;
  for (const m of text.matchAll(SECTION_LINK_RE)) {
    const anchor = m[1] as string;
    const start = (m.index ?? 0) + 2;
    out.push({ kind: 'anchor', subject: anchor, span: [start, start + anchor.length] });
  }
}

/**
 * Site generators slug headings differently (GitHub keeps `--` of `--watch, -w`, markdown-it
 * drops it), so a section is known by its letters and digits only.
 */
export function sectionKey(anchorOrHeading: string): string {
  let text = anchorOrHeading;
  try {
    text = decodeURIComponent(text);
  } catch {
    // A stray `%` is part of the anchor as written.
  }
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

const HEADING_RE = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm;
const SETEXT_RE = /^([^\n]+)\n {0,3}(?:=+|-+)[ \t]*$/gm;
const EXPLICIT_ID_RE = /(?:\bid|\bname)=["']([^"']+)["']|\{#([\w-]+)\}/g;

/** The section keys a Markdown document offers: headings (ATX and setext) and explicit ids. */
export function sectionsOf(markdown: string): Set<string> {
  const keys = new Set<string>();
  const add = (text: string) => {
    // A heading's link text counts, its URL does not: `## [API](api.md)` is the section "api".
    const key = sectionKey(text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\{#[\w-]+\}/g, ''));
    if (key) keys.add(key);
  };
  for (const m of markdown.matchAll(HEADING_RE)) add(m[1] as string);
  for (const m of markdown.matchAll(SETEXT_RE)) add(m[1] as string);
  for (const m of markdown.matchAll(EXPLICIT_ID_RE)) add((m[1] ?? m[2]) as string);
  return keys;
}

const SECTIONS: FileReader<Set<string>> = {
  name: 'markdown sections',
  read: (text) => (text === undefined ? new Set() : sectionsOf(text)),
  codec: SET_CODEC as AnswerCodec<Set<string>>,
};

/**
 * A section link holds while the memory's source document still has a heading (or an explicit
 * id) with the same letters and digits. Gone, it asks for review with the commit that removed it,
 * never makes the memory stale: a link into the document the memory came from is navigation, not
 * a statement about the project (the development repositories' labels call such links non-claims:
 * a table of contents losing three of twenty sections said nothing false). Unverifiable when the
 * memory came from no Markdown document, the document is gone (its own path tells), or the
 * section did not exist when the memory was written.
 */
export async function verifyAnchorClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const source = claim.sourceFile;
  if (source === undefined || !MARKDOWN_RE.test(source))
    return unverifiable('a section link in a memory not taken from a Markdown document');
  const resolved = resolveClaimPath(ctx.root, source);
  if (!resolved.inside) return unverifiable(`refused: ${source} is ${resolved.reason}, never read`);
  let now: string;
  try {
    now = readFileSync(path.join(ctx.root, resolved.relative), 'utf8');
  } catch {
    return unverifiable(`${source} is gone, so its sections cannot be looked up`);
  }
  const key = sectionKey(claim.subject.slice(1));
  if (key === '' || sectionsOf(now).has(key)) return ok('section present');
  const file = [resolved.relative];
  let sectionsThen = new Set<string>();
  const heldThen = await ctx.heldThen(file, claim.memoryValidFrom, SECTIONS, (keys) => {
    sectionsThen = keys;
    return keys.has(key);
  });
  if (heldThen === false) return unverifiable('no such section when the memory was written');
  const commit = await ctx.fileBreak(
    file,
    claim.memoryValidFrom,
    SECTIONS,
    (keys) => !keys.has(key),
    'every',
  );
  const check = withCommit(
    { verdict: 'stale', evidence: { reason: `section gone from ${source}`, doubtful: true } },
    commit,
  );
  if (reorganised(sectionsThen, sectionsOf(now))) {
    // Most sections left together: the document was reorganised (its reference moved to other
    // pages), so a missing section says nothing about the project. A link to look at, not drift.
    check.evidence.reason = `section gone from ${source}, which kept fewer than half of its sections`;
    check.evidence.doubtful = true;
  }
  return check;
}

/** Whether a document kept fewer than half of the sections it had (and had a few to lose). */
function reorganised(then: ReadonlySet<string>, now: ReadonlySet<string>): boolean {
  if (then.size < MIN_SECTIONS_TO_REORGANISE) return false;
  const kept = [...then].filter((key) => now.has(key)).length;
  return kept * 2 < then.size;
}
