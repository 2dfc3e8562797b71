/** Searching the working tree or a commit for many needles at once with `git grep`. */
import { codeOfLine, evidencePathspecs } from './evidenceFiles';
import type { EvidenceScope } from './evidenceFiles';
import { SET_CODEC, historyAnswer } from './gitHistory';
import type { GitContext } from './gitHistory';
import type { AnswerCodec } from './historyStore';
import { excludePathspecs } from './oversizedFiles';
import { grepLines } from './grepLines';
import { neededIn, overlapFreeGroups } from './needleOverlap';

/** Arguments per git grep call: far below any platform's command-line limit. */
const GREP_BATCH = 400;

export interface GrepOptions {
  commit?: string;
  wholeWord: boolean;
  /** Working-tree files not to read (too large for the scanner: oversizedFiles.ts). */
  skip?: readonly string[];
  /** What may be read (evidenceFiles.ts): `text` (default) or `code`. */
  scope?: EvidenceScope;
  /** Only these files (each taken literally); the whole tree when absent. */
  files?: readonly string[];
}

/**
 * Which of `needles` occur in the tracked files at `commit` (or in the working tree, untracked
 * files included, when `commit` is undefined), and in which files: batched `git grep`. Lockfiles
 * and generated files are never searched; with `scope: 'code'` neither are docs, tests, examples
 * and changelogs, and a match must stand in code, not in a comment or a string (evidenceFiles.ts).
 */
export async function grepNeedles(
  ctx: GitContext,
  needles: readonly string[],
  options: GrepOptions,
): Promise<Map<string, Set<string>>> {
  const unique = [...new Set(needles)].filter((n) => n.length > 0).sort();
  const scope = options.scope ?? 'text';
  const { commit } = options;
  // The working tree changes without HEAD moving: only answers about commits are kept.
  if (!commit) return grepBatches(ctx.root, unique, { ...options, scope });
  const found = new Map<string, Set<string>>();
  // One question per needle, so a re-check greps only the needles it has not asked before. At a
  // commit a needle's files do not depend on the other needles of its batch: code is searched by
  // whole lines (runGrep), and a text search at a commit asks one needle at a time (historyWalk).
  const question = (needle: string) =>
    `grep\u0000${commit}\u0000${options.wholeWord ? 'w' : 'f'}\u0000${scope}\u0000${(options.files ?? []).join('\u0001')}\u0000${needle}`;
  const missing = unique.filter(
    (n) => !ctx.cache.answers.has(question(n)) && !ctx.stored.has(question(n), null),
  );
  const batch = missing.length > 0 ? grepBatches(ctx.root, missing, { ...options, scope }) : undefined;
  // Each needle's answer awaits the batch and sees its failure; this only keeps it from going unhandled.
  if (batch) void batch.catch(() => undefined);
  const answers = unique.map((needle) =>
    historyAnswer(
      ctx,
      question(needle),
      'commits',
      async () => (await (batch as Promise<Map<string, Set<string>>>)).get(needle) ?? new Set<string>(),
      SET_CODEC as AnswerCodec<Set<string>>,
    ),
  );
  const files = await Promise.all(answers);
  unique.forEach((needle, i) => {
    const at = files[i] as Set<string>;
    if (at.size > 0) found.set(needle, at);
  });
  return found;
}

/** `runGrep` over `needles` in batches of GREP_BATCH. */
async function grepBatches(
  root: string,
  needles: readonly string[],
  options: GrepOptions & { scope: EvidenceScope },
): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  for (let i = 0; i < needles.length; i += GREP_BATCH)
    for (const [needle, files] of await runGrep(root, needles.slice(i, i + GREP_BATCH), options))
      found.set(needle, files);
  return found;
}

/**
 * One search for `needles`. Code is read by whole lines, each line holding every needle it holds;
 * other text by printed matches, where needles can hide one another (needleOverlap.ts): those that
 * can overlap at their ends are searched apart, and needles inside a match read back out of it.
 */
async function runGrep(
  root: string,
  needles: readonly string[],
  options: GrepOptions & { scope: EvidenceScope },
): Promise<Map<string, Set<string>>> {
  if (options.scope === 'code') return runGrepOnce(root, needles, options);
  const found = new Map<string, Set<string>>();
  for (const group of overlapFreeGroups(needles))
    for (const [needle, files] of await runGrepOnce(root, group, options)) found.set(needle, files);
  return found;
}

async function runGrepOnce(
  root: string,
  needles: readonly string[],
  options: GrepOptions & { scope: EvidenceScope },
): Promise<Map<string, Set<string>>> {
  const skip = options.commit ? [] : (options.skip ?? []);
  // Whole lines for code, so comments and strings can be told from code; only the match otherwise.
  const lines = options.scope === 'code';
  const prefix = options.commit ? `${options.commit}:` : '';
  const wanted = lines ? new Set(needles) : undefined;
  const inMatch = neededIn(needles, options.wholeWord);
  // Needles that are not identifiers are looked for as text: found once, not on every line.
  const texts = needles.filter((n) => !IDENTIFIER_RE.test(n));
  const grep = async (perl: boolean): Promise<Map<string, Set<string>>> => {
    const args = ['-z', '-I', '--no-color'];
    if (perl) {
      if (!lines) args.push('-o');
      args.push('-P', '-e', needlesPattern(needles, options.wholeWord));
    } else {
      args.push('-F');
      if (!lines) args.push('-o');
      if (options.wholeWord) args.push('-w');
      for (const needle of needles) args.push('-e', needle);
    }
    if (!options.commit) args.push('--untracked');
    if (options.commit) args.push(options.commit);
    args.push('--', ...evidencePathspecs(options.scope, options.files), ...excludePathspecs(skip));
    const found = new Map<string, Set<string>>();
    const add = (match: string, file: string) => {
      let files = found.get(match);
      if (!files) found.set(match, (files = new Set()));
      files.add(file);
    };
    await grepLines(root, args, (line) => {
      const nul = line.indexOf('\0');
      if (nul === -1) return;
      let file = line.slice(0, nul);
      if (prefix && file.startsWith(prefix)) file = file.slice(prefix.length);
      const content = line.slice(nul + 1);
      if (!wanted) for (const needle of inMatch(content)) add(needle, file);
      else if (content.length <= MAX_LINE)
        for (const needle of needlesInCode(codeOfLine(file, content), wanted, texts)) add(needle, file);
    });
    return found;
  };
  // One pattern for lines and for matches alike: `-o` prints the leftmost match, and of the needles
  // that start there the longest, as `-F` does, because the alternation lists longer needles first.
  if (!perlGrep) return grep(false);
  try {
    return await grep(true);
  } catch (error) {
    // Only a git built without PCRE asks again as fixed strings (slower, the same answer): any
    // other failure would fail the same way, many times slower (O(lines x needles)).
    if (!/Perl-compatible|LIBPCRE/i.test(String((error as Error).message ?? ''))) throw error;
    perlGrep = false;
    return grep(false);
  }
}

/**
 * Whether to grep through one Perl regular expression (false once git says it has no PCRE). Many `-e` patterns are
 * tried one after another on every line (O(lines x needles): 2 s for 215 needles on mocha's code,
 * 5 s on got's, 20-26 s for fastify's words in a 500-memory re-check); one alternation is matched
 * in a single pass (40 ms for mocha's lines).
 */
let perlGrep = true;

/**
 * One Perl pattern matching any of `needles` as `-F` would, and as `-w` would when `wholeWord`:
 * no word character (git's: ASCII letters, digits, `_`) right before or after the match.
 */
export function needlesPattern(needles: readonly string[], wholeWord: boolean): string {
  // Longer needles first: an alternation takes the first alternative that matches where a match
  // starts, and `-F -o` prints the longest (`allowHTTP1`, not `all`).
  const longestFirst = [...needles].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  // A backslash before an ASCII character that is not a letter or digit always makes it literal.
  const alternatives = longestFirst.map((n) => n.replace(/[^A-Za-z0-9_\u0080-\uffff]/g, '\\$&')).join('|');
  return wholeWord ? `(?<![A-Za-z0-9_])(?:${alternatives})(?![A-Za-z0-9_])` : `(?:${alternatives})`;
}

/** Longer lines are minified or generated code: never evidence. */
const MAX_LINE = 2_000;
const WORD_RE = /[A-Za-z_$][\w$]*/g;

/**
 * The needles that stand in a line of code: identifiers as whole words, anything else (`texts`,
 * the wanted needles that are not identifiers) as text.
 */
function needlesInCode(code: string, wanted: ReadonlySet<string>, texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(WORD_RE)) if (wanted.has(m[0])) out.push(m[0]);
  for (const needle of texts) if (code.includes(needle)) out.push(needle);
  return out;
}

const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/;
