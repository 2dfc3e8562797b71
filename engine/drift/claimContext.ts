import type { ExtractedClaim } from './claimTypes';
import type { FencedBlock } from '../extract/scanContext';
import { defaultReceivers, projectBindings } from './projectBindings';
import type { ProjectBindings } from './projectBindings';
import { textRolesOf } from './textRoles';
import { contextClaims } from './contextMatchers';
import { inOtherToolsConfig, isQuotedString, linksElsewhere } from './outsideSubjects';
import { overlaps } from './textClaimMatchers';
import type { TextRole } from './textRoles';

type Partial = Omit<ExtractedClaim, 'negated'>;

/**
 * Keeps the claims a text makes about this project, by where they stand (see TextRole): output
 * claims nothing; an example claims only the project API it calls (through the package's own name
 * or what it was imported as) and the scripts it runs, never its own variables, the reader's
 * dependencies or environment; a shell block claims scripts and commands; prose claims a
 * dependency only when it says the project uses it, and a bare word is a symbol only when it is
 * written like code. Statements about an old version ("in v4 the x option was ...") claim nothing now.
 */
export function claimsInContext(
  text: string,
  claims: readonly Partial[],
  packages: ReadonlySet<string>,
  negatedAt: (position: number) => boolean = () => false,
  programs: ReadonlySet<string> = new Set(),
): Partial[] {
  const roles = textRolesOf(text);
  const bindings = new Map<FencedBlock, ProjectBindings>();
  const bindingsAt = (position: number): ProjectBindings => {
    const fence = roles.fenceAt(position);
    if (!fence) return projectBindings('', packages);
    let found = bindings.get(fence);
    if (!found) bindings.set(fence, (found = projectBindings(text.slice(fence.start, fence.end), packages)));
    return found;
  };
  const out: Partial[] = [];
  for (const claim of claims) {
    const role = roles.roleAt(claim.span[0]);
    const kept = keep(text, claim, role, () => bindingsAt(claim.span[0]), packages, negatedAt(claim.span[0]));
    if (kept) out.push(kept);
  }
  const extra = contextClaims({
    text,
    fences: roles.fences,
    roleAt: (position) => roles.roleAt(position),
    bindingsOf: (fence) => bindingsAt(fence.start),
    programs,
    packages,
  });
  for (const claim of extra) {
    const same = out.findIndex((c) => overlaps(c.span, claim.span));
    if (same === -1) out.push(claim);
    else if (isSurer(claim, out[same] as Partial)) out[same] = claim;
  }
  return out;
}

/**
 * The same name at the same place, where the context says more: `ignoreInitial` in an example is
 * anyone's identifier (doubtful), but as a key of an object passed to the project's own function
 * (`chokidar.watch(path, { ignoreInitial: false })`) it is one of the project's options.
 */
function isSurer(claim: Partial, found: Partial): boolean {
  return (
    found.confidence === 'low' &&
    claim.confidence === undefined &&
    claim.kind === found.kind &&
    claim.subject === found.subject &&
    claim.span[0] === found.span[0] &&
    claim.span[1] === found.span[1]
  );
}

function keep(
  text: string,
  claim: Partial,
  role: TextRole,
  bindings: () => ProjectBindings,
  packages: ReadonlySet<string>,
  negated: boolean,
): Partial | undefined {
  if (role === 'output') return undefined;
  if (role === 'shell')
    return claim.kind === 'script' ||
      claim.kind === 'command' ||
      claim.published === true ||
      setForProject(text, claim, packages)
      ? claim
      : undefined;
  if (role === 'example') return exampleClaim(claim, bindings());
  if (isHistorical(clauseAround(text, claim.span[0]))) return undefined;
  switch (claim.kind) {
    case 'dependency':
      // The project's own name (`uuid@3` in "removed in `uuid@7`", `require('uuid/v4')`) is the
      // project or one of its versions, never a package it depends on. (The root package leads the
      // set; a monorepo's other packages may well depend on each other.)
      if (claim.subject === packages.values().next().value) return undefined;
      // A written version (`debug@2.6.9`) names this project's dependency; a bare name needs words that say so.
      // "There is no Redux" denies it of the project too.
      // A link to the package's own page names a package (a dependency if declared then: usedAs).
      return negated ||
        claim.version !== undefined ||
        claim.usedAs === 'package' ||
        statesProjectUse(text, claim, packages)
        ? claim
        : undefined;
    case 'command':
      // At the start of a prose line, the program's name is the sentence's subject ("nodemon is
      // a tool"), not a command line, unless a prompt (`$ `) says it is one.
      return role === 'prose' && !/^[ \t]*\$[ \t]/.test(text.slice(text.lastIndexOf('\n', claim.span[0]) + 1))
        ? undefined
        : claim;
    case 'symbol':
      if (isEmphasis(text, claim)) return undefined;
      // Most likely another's (a string, a page elsewhere, another tool's file): checked, never decisive.
      if (
        isQuotedString(text, claim.span) ||
        linksElsewhere(text, claim.span, packages) ||
        inOtherToolsConfig(clauseAround(text, claim.span[0]).text, packages)
      )
        return { ...claim, confidence: 'low' };
      if (role === 'prose' && !looksLikeCode(claim.subject, text, claim.span)) return undefined;
      return isBareWord(text, claim) && !namedAsApi(text, claim) ? { ...claim, confidence: 'low' } : claim;
    default:
      return claim;
  }
}

/**
 * `DEBUG=koa* node app` in a shell line: a variable set to a value naming the project switches
 * something of the project on; `PORT=3000 node app` configures the reader's own program.
 */
function setForProject(text: string, claim: Partial, packages: ReadonlySet<string>): boolean {
  if (claim.kind !== 'env' || text[claim.span[1]] !== '=') return false;
  const value = /^[^\s'"]*/.exec(text.slice(claim.span[1] + 1))?.[0].toLowerCase() ?? '';
  return [...packages].some(
    (name) => value.startsWith(name.toLowerCase()) && !/\w/.test(value[name.length] ?? ''),
  );
}

/** In an example: calls of the project's API (as calls: an arity, never a declaration), scripts, commands, configs of a named file. */
function exampleClaim(claim: Partial, bindings: ProjectBindings): Partial | undefined {
  switch (claim.kind) {
    case 'script':
    case 'command':
    case 'subpath':
      return claim;
    case 'config':
      return claim.file !== undefined ? claim : undefined;
    case 'symbol': {
      const first = claim.subject.split('.')[0] ?? '';
      const dotted = claim.subject.includes('.');
      const { signature: _signature, signatureSpan: _span, ...call } = claim;
      // `import { v4 as uuidv4 }`: `uuidv4()` calls the project's v4 by the reader's own name, so
      // it claims `v4` (callable with those arguments), never a `uuidv4` of the project.
      const exported = dotted ? undefined : bindings.aliases.get(claim.subject);
      if (exported !== undefined) return { ...call, subject: exported };
      if (dotted ? bindings.receivers.has(first) : bindings.imported.has(claim.subject)) return call;
      // A call through a name the example never bound to the project (a global it injects,
      // `this`, an instance made elsewhere) may or may not be its API: checked, never decisive.
      // The example's own names, and a bare name holding what the project returned, claim nothing.
      if (bindings.declared.has(first) || (!dotted && bindings.receivers.has(first))) return undefined;
      if (bindings.foreign.has(first)) return undefined;
      // `category => category.parentCategory`: a member the example's own class declares.
      if (dotted && bindings.ownMembers.has(claim.subject.slice(claim.subject.lastIndexOf('.') + 1)))
        return undefined;
      return { ...call, confidence: 'low' };
    }
    default:
      return undefined;
  }
}

// A line break ends a clause only where Markdown starts a new block (a blank line, a list item, a
// heading, a quote, a table row, a fence): hard-wrapped prose keeps its sentence across lines.
const CLAUSE_END_RE = /[.!?](?=\s|$)|;|\n(?=[ \t]*(?:\n|[-*+>|#]|\d+[.)]\s|```|$))/g;

/** The clause around a position: from the previous sentence end, semicolon or line break to the next. */
export function clauseAround(text: string, position: number): { start: number; text: string } {
  let start = 0;
  let end = text.length;
  CLAUSE_END_RE.lastIndex = 0;
  for (let m = CLAUSE_END_RE.exec(text); m !== null; m = CLAUSE_END_RE.exec(text)) {
    if (m.index < position) start = m.index + m[0].length;
    else {
      end = m.index;
      break;
    }
  }
  return { start, text: text.slice(start, end) };
}

const OLD_VERSION_RE =
  /\b(?:in|since|before|until|prior\s+to|as\s+of)\s+(?:[\w.-]+\s+)?v(?:ersion\s*)?\d+(?:\.\d+)*\b/i;
const PAST_RE = /\b(?:was|were|used\s+to|had|previously|formerly|no\s+longer)\b/i;

function isHistorical(clause: { text: string }): boolean {
  return OLD_VERSION_RE.test(clause.text) && PAST_RE.test(clause.text);
}

const USE_VERB = String.raw`(?:now\s+)?(?:uses?|using|depends?\s+on|relies\s+on|requires?|bundles?|ships\s+with|is\s+(?:built|implemented)\s+(?:on(?:\s+top\s+of)?|with|using)|builds?\s+on|wraps?|(?:written|tested|run)\s+(?:with|using))`;
// "The tests", "all of the tests", "our unit tests" are the project's own; "your tests" are not.
const PROJECT_TESTS = String.raw`(?<!\byour\s{1,3})(?:(?:all\s+(?:of\s+)?)?(?:the|our)\s+)?(?:unit\s+)?tests`;
const PROJECT_SUBJECT = String.raw`(?:we|it|this\s+(?:project|package|library|module|repo(?:sitory)?|app|tool)|the\s+(?:project|package|library|module|codebase)|${PROJECT_TESTS})`;
const DEPENDENCY_NOUN_RE =
  /\b(?:(?:dev|peer|optional)?\s*dependenc(?:y|ies)|devDependencies|peerDependencies)\b/i;

/** "We use X", "this package depends on X", "Pino uses X", "is built on top of X", "X is a dependency". */
function statesProjectUse(text: string, claim: Partial, packages: ReadonlySet<string>): boolean {
  const clause = clauseAround(text, claim.span[0]);
  const before = clause.text.slice(0, claim.span[0] - clause.start);
  const names = [...defaultReceivers(packages)].map((n) => n.replace(/[$]/g, '\\$')).join('|');
  // `pino.destination` which uses X: the project's API is the project too.
  const subject = names
    ? `(?:${PROJECT_SUBJECT}|(?:${names})(?:\\.[\\w$]+)*\`?(?:'s)?(?:\\s+\\w+){0,3})`
    : PROJECT_SUBJECT;
  if (new RegExp(`\\b${subject}\\s+(?:\\w+\\s+){0,2}${USE_VERB}\\b`, 'i').test(before)) return true;
  if (
    /\b(?:is\s+(?:built|implemented)\s+(?:on(?:\s+top\s+of)?|with|using)|powered\s+by|under\s+the\s+hood)\s*\S*$/i.test(
      before.trimEnd().slice(-60),
    )
  )
    return true;
  return DEPENDENCY_NOUN_RE.test(clause.text) && !/\b(?:your|you)\b/i.test(clause.text);
}

/** Markdown emphasis read as a name (`__DEPRECATED: ...__`, `_not_`): an underscore at an end, outside code. */
function isEmphasis(text: string, claim: Partial): boolean {
  if (text[claim.span[0] - 1] === '`') return false;
  return claim.subject.startsWith('_') || claim.subject.endsWith('_');
}

/** One plain word (`ready`, `exit`): an event, a value or the platform's as often as the project's API. */
function isBareWord(text: string, claim: Partial): boolean {
  return /^[a-z][a-z0-9]*$/.test(claim.subject) && text[claim.span[1]] !== '(';
}

const API_NOUN = String.raw`(?:option|options|property|properties|key|setting|method|function|class|hook|parameter|argument|field|flag|config)`;

/** "the `prettifier` property", "option `level`": the words around name it as the project's API. */
function namedAsApi(text: string, claim: Partial): boolean {
  const before = text.slice(Math.max(0, claim.span[0] - 30), claim.span[0]);
  const after = text.slice(claim.span[1], claim.span[1] + 30);
  return (
    new RegExp(`\\b${API_NOUN}\\s*\\W?$`, 'i').test(before) ||
    new RegExp(`^\\W?\\s*${API_NOUN}\\b`, 'i').test(after)
  );
}

/** Prose outside code: a name is a symbol when written like one (`a.b`, `parse()`, `getUser`, `max_size`). */
function looksLikeCode(subject: string, text: string, span: [number, number]): boolean {
  if (text[span[1]] === '(' || subject.includes('.')) return true;
  return /^[a-z][a-z0-9]*[A-Z]\w*$/.test(subject) || /^[a-z]\w*_[a-z0-9]\w*$/.test(subject);
}
