import type { ArgumentKind } from './callArguments';
/** The vocabulary of drift: what a memory claims, and what a check found. */

export const CLAIM_KINDS = [
  'path',
  'symbol',
  'script',
  'dependency',
  'command',
  'config',
  'env',
  'route',
  'anchor',
  'subpath',
  'event',
] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/** One checkable statement of a memory, found in its text without an LLM. */
export interface ExtractedClaim {
  kind: ClaimKind;
  /**
   * What is claimed to exist: a workspace path as written (`/` separators), a symbol (`name` or
   * `Container.name`), a script, package, config key, environment variable, route path, command,
   * a section of the memory's source document (`#anchor`), an event the project emits, or a
   * subpath of the project's package
   * (`pino/file`).
   */
  subject: string;
  /** [start, end) of the claim in the memory's content. */
  span: [number, number];
  /** True for "there is no Redux", "the /admin endpoint was removed": the claim must stay false. */
  negated: boolean;
  /**
   * `low` when the text may not be saying anything about this project (a bare word that could be
   * an event or a value): such a claim found false asks for review, never makes a memory stale.
   */
  confidence?: 'low';
  /** The file a symbol is said to be in, and where the text names it. */
  file?: string;
  fileSpan?: [number, number];
  /**
   * A path written as a Markdown link's target (`[Reply](Reply.md)`): it means that exact file
   * beside the document, never a file of that name elsewhere.
   */
  linked?: boolean;
  /**
   * A plain word the text says something uses ("when using `fsevents` to watch"), or a link to a
   * package's own page (`[anymatch](https://github.com/es128/anymatch)`): the project's dependency
   * if its manifest declared a package of that name when the memory was written.
   */
  usedAs?: 'package';
  /**
   * The text requires the package and calls what it gets (`const thelib = require('thelib');
   * thelib(...)`): only a CommonJS entry gives a callable module (a `require()` of ES modules gives
   * a namespace object, where it works at all), so it must still load as CommonJS.
   */
  requiredCallable?: boolean;
  /**
   * The required module itself is called (`new LRU(50)` after `var LRU = require('lru-cache')`),
   * not only introduced as the CommonJS way: the entry must give a default, not only named exports.
   */
  moduleCalled?: boolean;
  /**
   * The package as npm publishes it (`npm install thelib`, its registry page, a CDN's
   * `https://unpkg.com/thelib/thelib.css`): published under that name, holding that file,
   * whatever `exports` offers importers (publishedPackage.ts).
   */
  published?: boolean;
  /**
   * The name is an option of the project: a key of an object an example passes to the project
   * (`new LRU({ length: fn })`) or a name the text calls an option ("the `length` option"). Its
   * presence is decided by the options the code takes, not by the word (optionPresence.ts).
   */
  option?: boolean;
  /** A line number written after a path (`src/a.ts:42`, `#L42`). */
  line?: number;
  /** A version written with a dependency (`express@4.19.2`, `lodash 4.17`). */
  version?: string;
  /** How many parameters the text gives a symbol (`login(user, password)`): 2. */
  parameters?: number;
  /** What a call passes, by kind (`listen(3000, cb)`: number, other): checked against typed declarations. */
  argumentKinds?: ArgumentKind[];
  /** The HTTP method written with a route. */
  method?: string;
  /** The parameter list the text gives a declared function (`(input: string, opts)`), as written. */
  signature?: string;
  signatureSpan?: [number, number];
  /** The value a config claim gives its key (`strict: true` -> `true`), unquoted, and where. */
  value?: string;
  valueSpan?: [number, number];
  /** A config claim about an option's default ("`level` defaults to `'info'`"), not a file's value. */
  isDefault?: boolean;
}

export const VERDICTS = ['ok', 'stale', 'moved', 'unverifiable'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The commit that made a claim false (or, for a negated claim, true). */
export interface CommitEvidence {
  hash: string;
  /** Author date, ISO 8601. */
  date: string;
  /** ms since epoch of `date`. */
  time: number;
  message: string;
  author: string;
}

export interface ClaimEvidence {
  /** Why, in a few words: `missing`, `deleted`, `renamed`, `in another file`, `signature changed`. */
  reason: string;
  /** Where a moved path or symbol is now (a workspace path). */
  target?: string;
  /** Where the thing was found (negated claims, symbols in other files). */
  foundIn?: string[];
  commit?: CommitEvidence;
  /** What the code says now (a signature, a dependency version). */
  now?: string;
  /** Found false on a low-confidence claim: a reason to review, not drift. */
  doubtful?: boolean;
  /**
   * What the claim names still exists; only the way the memory uses it no longer works (a call
   * no declaration accepts now). The memory wants amending, never invalidating as dead.
   */
  amendable?: boolean;
  /** A stale claim that a rewrite repairs: the memory's text at `span` becomes `text`. */
  repair?: { span: [number, number]; text: string };
}

export interface ClaimCheck {
  verdict: Verdict;
  evidence: ClaimEvidence;
}

/** A stored claim with the result of its last check. */
export interface StoredClaim extends ExtractedClaim {
  id: number;
  memoryId: string;
  verdict: Verdict | null;
  evidence: ClaimEvidence | null;
  checkedAt: number | null;
}

/**
 * A memory's drift: `none` has no claims; `ok` every checkable claim holds; `moved` only moved
 * claims (repairable by rewriting); `stale` some claims are false, some hold; `dead` every
 * checkable claim is false; `unverifiable` nothing could be checked.
 */
export const DRIFT_STATUSES = ['none', 'ok', 'moved', 'stale', 'dead', 'unverifiable'] as const;
export type DriftStatus = (typeof DRIFT_STATUSES)[number];
