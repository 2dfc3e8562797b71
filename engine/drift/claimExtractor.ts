import { matchBoldOptionItems } from './boldOptionItems';
import { extractEntities } from '../extract/entities';
import type { ExtractedClaim } from './claimTypes';
import { claimsFromEntities } from './entityClaims';
import { claimsInContext } from './claimContext';
import { matchConfigValues } from './configValueMatcher';
import { parameterListAt } from './signatures';
import { isInside, listAt, negatedRanges } from './negation';
import { inBuiltTemplateText, isArgumentValue, withoutExampleStrings } from './exampleCode';
import { matchPackageLinks, matchPossessivePackages, matchUsedPackages } from './usedPackages';
import { matchDefaultValues } from './defaultValueMatcher';
import { headingOption, headingSymbolClaim } from './headingClaims';
import type { SourceHeading } from './headingClaims';
import { matchRepositoryLinks } from './repositoryLinks';
import { matchSectionLinks } from './anchorClaims';
import { matchSubpaths } from './subpathClaims';
import { matchPublishedPackage } from './publishedPackage';
import { matchEvents } from './eventClaims';
import { asPackageMember } from './leadingDotMembers';
import { matchChainedMembers } from './chainedMembers';
import {
  matchConfigKeys,
  matchProjectCommands,
  matchRoutes,
  matchSpecialPaths,
  matchVersionedPackages,
  overlaps,
} from './textClaimMatchers';

export interface ClaimExtractionOptions {
  /** Names of the project's own programs (package.json `bin`): `engram drift` is a command claim. */
  projectPrograms?: ReadonlySet<string>;
  /** Names of the project's own packages (package.json `name`): `pino.final()` in an example is its API. */
  projectPackages?: ReadonlySet<string>;
  /** The heading above the memory's block in its source document (sourceHeadings.ts). */
  heading?: SourceHeading;
  /** The block is a list under "the following ... are not implemented:" there: its items are denied. */
  deniedList?: boolean;
  /** The block is a list under an "Options" heading there: its items' names are options. */
  optionsList?: boolean;
}

type Partial = Omit<ExtractedClaim, 'negated'>;

/** "`parse()` in src/a.ts", "`parse` is defined in `src/a.ts`", "src/a.ts exports `parse`". */
const SYMBOL_THEN_FILE_RE =
  /^[`'"]?\s*(?:\(\)\s*)?(?:(?:is|are|lives?|sits?|was|were)\s+)?(?:(?:defined|declared|exported|implemented|located|found|handled|served|registered|mounted)\s+)?(?:in|from|inside|at|by)\s+(?:the\s+file\s+)?[`'"]?$/i;
const FILE_THEN_SYMBOL_RE =
  /^[`'"]?\s*(?:exports?|defines?|declares?|contains?|has|holds?|(?:would\s+)?(?:corresponds?|maps?)\s+to|serves?|handles?|:)\s+(?:the\s+)?[`'"]?$/i;
const MAX_ASSOCIATION_GAP = 40;

/**
 * The checkable claims of a memory's text: pure, no I/O. Entity extraction finds the paths,
 * symbols, commands, packages and environment variables; this adds what only a claim needs
 * (line numbers, versions, the file a symbol is said to be in, routes, config keys, paths with
 * spaces or non-ASCII letters) and marks claims inside denying clauses as negated.
 */
export function extractClaims(text: string, options: ClaimExtractionOptions = {}): ExtractedClaim[] {
  const sentences = withoutExampleStrings(text);
  const negated = negatedRanges(sentences, true);
  const negatedAt = (position: number) => isInside(negated, position);
  const denied = negatedRanges(sentences);
  const deniedItems = options.deniedList ? listAt(sentences, 0) : undefined;
  if (deniedItems) denied.push(deniedItems);
  const special: Partial[] = [];
  matchSpecialPaths(text, special);
  matchRepositoryLinks(text, options.projectPackages ?? new Set(), special);
  matchSectionLinks(text, special);
  matchSubpaths(text, options.projectPackages ?? new Set(), special);
  matchPublishedPackage(text, options.projectPackages ?? new Set(), special);
  matchRoutes(text, special);
  matchConfigValues(text, special);
  matchDefaultValues(text, special, headingOption(options.heading));
  matchConfigKeys(text, special);
  matchBoldOptionItems(text, special);
  matchVersionedPackages(text, special);
  matchUsedPackages(text, special);
  matchPackageLinks(text, special);
  matchPossessivePackages(text, special);
  matchEvents(text, special);
  matchChainedMembers(text, special);
  matchProjectCommands(text, options.projectPrograms ?? new Set(), special);
  const fromEntities = claimsFromEntities(
    text,
    extractEntities(text),
    options.projectPrograms ?? new Set(),
    negatedAt,
  ).filter((claim) => !special.some((s) => overlaps(s.span, claim.span)));
  const claims = claimsInContext(
    text,
    dedupe([...special, ...fromEntities]),
    options.projectPackages ?? new Set(),
    negatedAt,
    options.projectPrograms ?? new Set(),
  ).sort((a, b) => a.span[0] - b.span[0]);
  associateSymbolsWithFiles(text, claims);
  const named = withoutRepeatedCalls(
    text,
    claims.filter(
      (claim) =>
        !isArgumentValue(text, claim) && !inExampleString(text, claim) && !isNoCodeSymbol(text, claim),
    ),
  );
  // Only a package can be denied by "no longer needed"; a flag or a function no longer needed exists.
  const described = options.heading && headingSymbolClaim(text, options.heading);
  // In text order, as the claim store reads them back: a re-check gives the first check's report.
  return [
    ...named
      .map(asDocumentPath(text))
      .map(asPackageMember(text, options.projectPackages ?? new Set()))
      .map(withUse(text))
      .map(asNamedOption(text, options.optionsList === true))
      .map((claim) => ({
        ...claim,
        ...(claim.kind === 'path' && isLinkTarget(text, claim.span[0]) ? { linked: true } : {}),
        negated: claim.kind === 'dependency' ? negatedAt(claim.span[0]) : isInside(denied, claim.span[0]),
      })),
    // What the sentence describes exists: a denial in it ("Does not update ...") is about what it does.
    ...(described ? [{ ...described, negated: false }] : []),
  ].sort((a, b) => a.span[0] - b.span[0]);
}

/** "using `fsevents`", "use the `fsevents`", "backed by `chokidar`": a use right before the word. */
const USED_BEFORE_RE =
  /\b(?:uses?|using|used|via|backed\s+by|powered\s+by|relies\s+on|requires?)\s+(?:the\s+|an?\s+)?[`[]?$/i;
const PACKAGE_WORD_RE = /^[a-z0-9][a-z0-9._-]*$/;

/** Marks a doubtful plain word the text says is used (see ExtractedClaim.usedAs). */
function withUse(text: string): (claim: Partial) => Partial {
  return (claim) => {
    if (claim.kind !== 'symbol' || claim.confidence !== 'low' || !PACKAGE_WORD_RE.test(claim.subject))
      return claim;
    // Within the paragraph: Markdown wraps a sentence over lines ("use the\n`fsevents`").
    const paragraphStart = text.lastIndexOf('\n\n', claim.span[0] - 1) + 1;
    const before = text.slice(Math.max(paragraphStart, claim.span[0] - 40), claim.span[0]);
    return USED_BEFORE_RE.test(before) ? { ...claim, usedAs: 'package' } : claim;
  };
}

/** "`length` option", "the `length` options function": the text calls the name an option. */
const OPTION_AFTER_RE = /^`?\s+options?\b/i;
/** "* `length` Function that ...": the name a list item opens with. */
const ITEM_OPENING_RE = /^[ \t]*[*+-][ \t]+`$/;

/**
 * Marks a name the text calls an option, or that opens an item of a list under an "Options"
 * heading (see ExtractedClaim.option).
 */
function asNamedOption(text: string, optionsList: boolean): (claim: Partial) => Partial {
  const opensItem = (start: number) =>
    optionsList && ITEM_OPENING_RE.test(text.slice(text.lastIndexOf('\n', start - 1) + 1, start));
  return (claim) =>
    claim.kind === 'symbol' &&
    claim.confidence !== 'low' &&
    /^[A-Za-z_$][\w$]*$/.test(claim.subject) &&
    (OPTION_AFTER_RE.test(text.slice(claim.span[1], claim.span[1] + 12)) || opensItem(claim.span[0]))
      ? { ...claim, option: true }
      : claim;
}

/**
 * `Reply.md` reads like a member `md` of `Reply`, but a Markdown file is what it names: as a link's
 * target, or by its extension.
 */
function asDocumentPath(text: string): (claim: Partial) => Partial {
  return (claim) => {
    if (claim.kind !== 'symbol') return claim;
    if (!MARKDOWN_FILE_RE.test(claim.subject) && !isLinkTarget(text, claim.span[0])) return claim;
    return { kind: 'path', subject: text.slice(claim.span[0], claim.span[1]), span: claim.span };
  };
}

const MARKDOWN_FILE_RE = /^[\w.-]+\.(?:md|mdx|markdown)$/i;

/** `[Reply](Reply.md)` or `[reply]: Reply.md`: a Markdown link's target starts here. */
function isLinkTarget(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 300), start);
  return /\]\(\s*<?(?:\.\/)?$/.test(before) || /^\s*\[[^\]\n]+\]:\s*<?(?:\.\/)?$/.test(before);
}

/**
 * SQL written in capitals (`FROM`, `WHERE` and `JOIN` support subqueries; `DATETIME` columns): the
 * database's language, never a symbol of the project's code.
 */
const SQL_WORDS = new Set(
  (
    'SELECT FROM WHERE JOIN INNER LEFT RIGHT OUTER CROSS FULL ON USING GROUP ORDER BY HAVING LIMIT OFFSET ' +
    'UNION ALL DISTINCT INSERT INTO VALUES UPDATE SET DELETE CREATE ALTER DROP TABLE INDEX VIEW ' +
    'PRIMARY FOREIGN KEY REFERENCES UNIQUE DEFAULT NULL NOT AND OR IN IS LIKE ILIKE BETWEEN EXISTS CASE ' +
    'WHEN THEN ELSE END AS ASC DESC RETURNING CASCADE TRUNCATE BEGIN COMMIT ROLLBACK SAVEPOINT ' +
    'LOCK SHARE NOWAIT SKIP LOCKED WITH RECURSIVE CHECK CONSTRAINT ' +
    'INT INTEGER BIGINT SMALLINT TINYINT DECIMAL NUMERIC FLOAT REAL DOUBLE BOOLEAN BOOL CHAR VARCHAR TEXT ' +
    'BLOB BYTEA JSON JSONB UUID DATE TIME DATETIME TIMESTAMP TIMESTAMPTZ INTERVAL ENUM SERIAL'
  ).split(' '),
);

/** The files every package ships by these names (`README`, `LICENSE`): files, never symbols. */
const PACKAGE_FILE_NAMES = new Set([
  'README',
  'LICENSE',
  'LICENCE',
  'CHANGELOG',
  'CHANGES',
  'HISTORY',
  'NOTICE',
  'AUTHORS',
  'COPYING',
  'CONTRIBUTING',
]);

/**
 * `%sapper.head%`, `%PUBLIC_URL%`: a placeholder a template engine fills in, named by its markers,
 * not a symbol of the code; nor is a package file's conventional name (`README`) or SQL (`WHERE`).
 */
function isNoCodeSymbol(text: string, claim: Partial): boolean {
  if (claim.kind !== 'symbol') return false;
  if (PACKAGE_FILE_NAMES.has(claim.subject) || SQL_WORDS.has(claim.subject)) return true;
  if (isParameterName(text, claim.span[0], claim.span[1])) return true;
  return text[claim.span[0] - 1] === '%' && text[claim.span[1]] === '%';
}

/** `name: Type` or `name?: Type` right after `(` or `,`, rest dots allowed. */
const PARAMETER_BEFORE_RE = /[(,]\s*(?:\.\.\.)?$/;
const PARAMETER_AFTER_RE = /^\??\s*:(?!:)/;

/**
 * `(chunkInfo: ChunkInfo) => string`, `(id: string, parentId: string) => boolean`: the parameter
 * names of a signature the text writes out are its own labels, not names the code must have (a
 * parameter renamed in the code changes nothing a caller does). Only inside parentheses: an
 * object's keys (`{ level: 'info' }`, inside a call or not) are options, and stay claims.
 */
function isParameterName(text: string, start: number, end: number): boolean {
  if (!PARAMETER_AFTER_RE.test(text.slice(end, end + 3))) return false;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 200), start);
  if (!PARAMETER_BEFORE_RE.test(before)) return false;
  return innermostOpenBracket(before) === '(';
}

/** The innermost bracket still open at the end of `text`, or undefined. */
function innermostOpenBracket(text: string): string | undefined {
  const open: string[] = [];
  for (const ch of text) {
    if (ch === '(' || ch === '{' || ch === '[' || ch === '<') open.push(ch);
    else if (ch === ')' || ch === '}' || ch === ']' || (ch === '>' && open[open.length - 1] === '<'))
      open.pop();
  }
  return open[open.length - 1];
}

/**
 * A name in the text of a template an example builds is what it writes out, not a use of the API
 * (see inBuiltTemplateText). Paths, subpaths and config values in strings stay claims.
 */
function inExampleString(text: string, claim: Partial): boolean {
  return claim.kind === 'symbol' && inBuiltTemplateText(text, claim.span[0]);
}

/**
 * An example that makes the same call again, word for word (`f.listen(8080, cb)` in each of five
 * snippets), claims once that such a call works: one finding, on the first, not five. Calls with
 * other arguments are other claims (each pattern a router is documented with); names and paths
 * keep every occurrence, since a repair rewrites each of them.
 */
function withoutRepeatedCalls(text: string, claims: Partial[]): Partial[] {
  const seen = new Set<string>();
  return claims.filter((claim) => {
    if (claim.kind !== 'symbol' || claim.argumentKinds === undefined || claim.signature !== undefined)
      return true;
    const call = text.slice(claim.span[0], afterArguments(text, claim.span[1]));
    const key = [claim.subject, claim.confidence, claim.file, call].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function dedupe(claims: Partial[]): Partial[] {
  const seen = new Set<string>();
  return claims.filter((claim) => {
    const key = `${claim.kind}\u0000${claim.span[0]}\u0000${claim.span[1]}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Gives each symbol and route the file the same sentence places it in, when the words between say
 * so ("`parse(input)` is in src/parse.ts", "GET /users/:id is handled in routes/users.ts").
 */
function associateSymbolsWithFiles(text: string, claims: Partial[]): void {
  claims.forEach((claim, index) => {
    if ((claim.kind !== 'symbol' && claim.kind !== 'route') || claim.file !== undefined) return;
    const end = claim.signatureSpan?.[1] ?? afterArguments(text, claim.span[1]);
    const after = claims.slice(index + 1).find((c) => c.kind === 'path');
    if (after && isFileAssociation(text, end, after.span[0], SYMBOL_THEN_FILE_RE)) {
      claim.file = after.subject;
      claim.fileSpan = after.span;
      return;
    }
    const before = claims
      .slice(0, index)
      .reverse()
      .find((c) => c.kind === 'path');
    if (before && isFileAssociation(text, before.span[1], claim.span[0], FILE_THEN_SYMBOL_RE)) {
      claim.file = before.subject;
      claim.fileSpan = before.span;
    }
  });
}

/** Past a call's argument list written right after a name (`login(user, password)`), if any. */
function afterArguments(text: string, end: number): number {
  if (text[end] !== '(') return end;
  const list = parameterListAt(text, end);
  return list && list.open === end ? list.close + 1 : end;
}

function isFileAssociation(text: string, from: number, to: number, words: RegExp): boolean {
  if (to < from || to - from > MAX_ASSOCIATION_GAP) return false;
  return words.test(text.slice(from, to).replace(/`/g, (q) => q));
}
