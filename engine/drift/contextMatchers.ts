import type { FencedBlock } from '../extract/scanContext';
import type { ExtractedClaim } from './claimTypes';
import { packageNamesPattern } from './projectBindings';
import type { ProjectBindings } from './projectBindings';
import type { TextRole } from './textRoles';

type Partial = Omit<ExtractedClaim, 'negated'>;

/**
 * Claims only the role of a stretch of text reveals, which the entity extractor does not name:
 * the option keys an example passes to the project (`pino({ level: 'info' })`) or a config
 * example sets (`allowUncaught: true` in a `.mocharc.yml` block), the flags of the project's
 * program written alone in prose (`--forbid-only`), methods written with a leading dot
 * (`.option()`), names taken from the package (`require('mocha').it`) and methods an example
 * calls on the `this` the project gives its callbacks (`this.retries(2)`).
 */
export interface MatcherContext {
  text: string;
  fences: ReadonlyArray<{ fence: FencedBlock; role: TextRole }>;
  bindingsOf(fence: FencedBlock): ProjectBindings;
  roleAt(position: number): TextRole;
  programs: ReadonlySet<string>;
  /** The project's own package names (package.json `name`). */
  packages: ReadonlySet<string>;
}

const CONFIG_LANGUAGES = new Set(['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml']);
const OBJECT_KEY_RE = /(?<![\w$.'"`?])([A-Za-z_$][\w$]*)\s*:(?![:/])/g;
const CONFIG_KEY_RE = /^[ \t-]*["']?([A-Za-z_$][\w$-]*)["']?\s*[:=]/gm;
const DECLARED_RE = /\b(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/g;
const INLINE_CODE_RE = /`([^`\n]{1,200})`/g;
const FLAG_RE = /^--([a-z][\w-]*)(?:[ =]<?[\w.<>|-]*>?)?$/;
/** An alias in a flag list: `-r <module>`, or a sub-command word (`inspect`). */
const SHORT_FLAG_OR_WORD_RE = /^(?:-[A-Za-z](?:[ =]<?[\w.<>|-]*>?)?|[a-z][\w-]*)$/;
/** `.option()`, `.exceptions.handle()`: a method written with a leading dot, receiver left out. */
const DOTTED_METHOD_RE = /^\.([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(.*\))?$/;
const JSDOC_LINK_RE = /\{@link(?:code|plain)?\s+([A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)*)/g;
const THIS_CALL_RE = /(?<![\w$.])this\.([A-Za-z_$][\w$]*)\s*\(/g;
const EVENT_CALL_RE =
  /\.(?:on|once|off|emit|addListener|removeListener|prependListener)\(\s*(['"])([a-z][\w:-]{0,40})\1/g;
const MAX_CHAIN_STEPS = 40;

export function contextClaims(ctx: MatcherContext): Partial[] {
  const out: Partial[] = [];
  for (const { fence, role } of ctx.fences) {
    if (role !== 'example') continue;
    if (CONFIG_LANGUAGES.has(fence.language)) configKeys(ctx.text, fence, out);
    else {
      objectKeys(ctx.text, fence, ctx.bindingsOf(fence), out);
      namesTakenFromPackage(ctx.text, fence, ctx.packages, out);
      callsOfPackage(ctx.text, fence, ctx.bindingsOf(fence), out);
      callsOnThis(ctx.text, fence, out);
      eventsOfProject(ctx.text, fence, ctx.bindingsOf(fence), out);
    }
  }
  inlineForms(ctx, out);
  jsdocLinks(ctx, out);
  return out;
}

/** `require('mocha').it`, `(await import('pkg')).parse`: the package exports that name. */
function namesTakenFromPackage(
  text: string,
  fence: FencedBlock,
  packages: ReadonlySet<string>,
  out: Partial[],
): void {
  if (packages.size === 0) return;
  const names = packageNamesPattern(packages);
  const re = new RegExp(
    `(?:require|\\(\\s*await\\s+import)\\(\\s*['"](?:${names})['"]\\s*\\)\\s*\\)?\\.([A-Za-z_$][\\w$]*)`,
    'g',
  );
  const body = text.slice(fence.start, fence.end);
  for (const m of body.matchAll(re)) {
    const name = m[1] as string;
    const start = fence.start + (m.index ?? 0) + m[0].length - name.length;
    out.push({ kind: 'symbol', subject: name, span: [start, start + name.length] });
  }
}

/**
 * `pino(dest)`, `P(dest)` after `const P = require('pino')`: a call of the package itself, claimed
 * under the package's name. Only that name's presence can be checked (a default export has no
 * name of its own), so it is never decisive.
 */
function callsOfPackage(text: string, fence: FencedBlock, bindings: ProjectBindings, out: Partial[]): void {
  if (bindings.packageItself.size === 0) return;
  const names = [...bindings.packageItself.keys()].map((n) => n.replace(/[$]/g, '\\$')).join('|');
  const body = text.slice(fence.start, fence.end);
  for (const m of body.matchAll(new RegExp(`(?<![\\w$.'"])(${names})\\s*\\(`, 'g'))) {
    const name = m[1] as string;
    const start = fence.start + (m.index ?? 0);
    const subject = bindings.packageItself.get(name) as string;
    out.push({ kind: 'symbol', subject, span: [start, start + name.length], confidence: 'low' });
  }
}

/**
 * `this.retries(2)` in a callback the project calls: a method of the context it binds, or the
 * reader's own class: checked, never decisive.
 */
function callsOnThis(text: string, fence: FencedBlock, out: Partial[]): void {
  const body = text.slice(fence.start, fence.end);
  for (const m of body.matchAll(THIS_CALL_RE)) {
    const name = m[1] as string;
    const start = fence.start + (m.index ?? 0) + m[0].indexOf(name);
    out.push({ kind: 'symbol', subject: name, span: [start, start + name.length], confidence: 'low' });
  }
}

/** Keys of a config example: the project's options, written as the config file spells them. */
function configKeys(text: string, fence: FencedBlock, out: Partial[]): void {
  const body = text.slice(fence.start, fence.end);
  for (const m of body.matchAll(CONFIG_KEY_RE)) {
    const key = m[1] as string;
    const start = fence.start + (m.index ?? 0) + m[0].indexOf(key);
    out.push({
      kind: 'symbol',
      subject: camelCase(key),
      span: [start, start + key.length],
      confidence: 'low',
    });
  }
}

/**
 * Keys of object literals in a code example. Inside the arguments of a call through one of the
 * project's names they are its options; elsewhere they may be the reader's own.
 */
function objectKeys(text: string, fence: FencedBlock, bindings: ProjectBindings, out: Partial[]): void {
  const body = text.slice(fence.start, fence.end);
  const direct = projectCallArguments(body, [...bindings.receivers, ...bindings.imported]);
  const calls = [...direct, ...objectsPassedIn(body, direct)];
  const declared = new Set([...body.matchAll(DECLARED_RE)].map((m) => m[1] as string));
  for (const m of body.matchAll(OBJECT_KEY_RE)) {
    const key = m[1] as string;
    const at = m.index ?? 0;
    if (declared.has(key) || /^(?:https?|default|case)$/.test(key) || insideString(body, at)) continue;
    const start = fence.start + at;
    const claim: Partial = { kind: 'symbol', subject: key, span: [start, start + key.length] };
    if (!calls.some(([open, close]) => at > open && at < close)) claim.confidence = 'low';
    else claim.option = true;
    out.push(claim);
  }
}

/** [open, close] of the argument lists of calls through the project's names (`pino(...)`, `pino.x(...)`). */
function projectCallArguments(body: string, names: readonly string[]): Array<[number, number]> {
  if (names.length === 0) return [];
  const escaped = names.map((n) => n.replace(/[$]/g, '\\$'));
  const re = new RegExp(`(?<![\\w$.])(?:${escaped.join('|')})(?:\\.[A-Za-z_$][\\w$]*)*\\s*\\(`, 'g');
  const spans: Array<[number, number]> = [];
  for (const m of body.matchAll(re)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const close = matchingClose(body, open);
    if (close !== undefined) spans.push([open, close]);
  }
  return spans;
}

/** Where the bracket opened at `open` (`(` or `{`) closes, nested ones included. */
function matchingClose(body: string, open: number): number | undefined {
  const [opening, closing] = body[open] === '{' ? ['{', '}'] : ['(', ')'];
  let depth = 0;
  for (let i = open; i < body.length; i++) {
    if (body[i] === opening) depth++;
    else if (body[i] === closing && --depth === 0) return i;
  }
  return undefined;
}

/**
 * Object literals assigned to a name that is then passed to the project (`options = { max: 500 }`
 * ... `new LRU(options)`): [open, close] of each, so their keys are its options too.
 */
function objectsPassedIn(body: string, calls: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const passed = new Set<string>();
  for (const [open, close] of calls)
    for (const m of body.slice(open + 1, close).matchAll(/(?<![\w$.:'"])([A-Za-z_$][\w$]*)\s*(?=[,)]|$)/g))
      passed.add(m[1] as string);
  const spans: Array<[number, number]> = [];
  for (const m of body.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*=\s*\{/g)) {
    if (!passed.has(m[1] as string)) continue;
    const open = (m.index ?? 0) + m[0].length - 1;
    const close = matchingClose(body, open);
    if (close !== undefined) spans.push([open, close]);
  }
  return spans;
}

/** A quote opened and not closed before `at` on its line. */
function insideString(body: string, at: number): boolean {
  const line = body.slice(body.lastIndexOf('\n', at - 1) + 1, at);
  return (
    (line.match(/'/g)?.length ?? 0) % 2 === 1 ||
    (line.match(/"/g)?.length ?? 0) % 2 === 1 ||
    (line.match(/`/g)?.length ?? 0) % 2 === 1
  );
}

/** `--forbid-only` alone in prose (a flag of the project's program), `.option()` (a method). */
function inlineForms(ctx: MatcherContext, out: Partial[]): void {
  const program = [...ctx.programs].sort((a, b) => a.length - b.length)[0];
  for (const m of ctx.text.matchAll(INLINE_CODE_RE)) {
    const code = m[1] as string;
    const start = (m.index ?? 0) + 1;
    const role = ctx.roleAt(start);
    if (role === 'example' || role === 'shell' || role === 'output') continue;
    if (program !== undefined && flagList(code, start, program, out)) continue;
    const method = DOTTED_METHOD_RE.exec(code);
    if (method) {
      const name = method[1] as string;
      const claim: Partial = { kind: 'symbol', subject: name, span: [start + 1, start + 1 + name.length] };
      if (method[2] === undefined) claim.confidence = 'low';
      out.push(claim);
    }
  }
}

/** `{@link Runner}`, `{@link Runner#run}` in prose: the API it links to, by its last name. */
function jsdocLinks(ctx: MatcherContext, out: Partial[]): void {
  if (!ctx.text.includes('{@link')) return;
  for (const m of ctx.text.matchAll(JSDOC_LINK_RE)) {
    const target = (m[1] as string).replace(/#/g, '.');
    const start = (m.index ?? 0) + m[0].length - (m[1] as string).length;
    if (ctx.roleAt(start) === 'output') continue;
    out.push({ kind: 'symbol', subject: target, span: [start, start + target.length] });
  }
}

/**
 * `--require <module>, -r <module>` or `--inspect, --inspect-brk`, as an option's heading lists
 * a flag with its aliases: one claim per long flag, spanning the aliases that follow it (a short
 * flag says too little to check alone). False when the code is not such a list.
 */
function flagList(code: string, start: number, program: string, out: Partial[]): boolean {
  const parts = [...code.matchAll(/[^,]+/g)].map((m) => ({
    text: m[0].trim(),
    at: (m.index ?? 0) + m[0].search(/\S/),
  }));
  const first = parts[0];
  if (first === undefined || !FLAG_RE.test(first.text)) return false;
  if (!parts.every((p) => FLAG_RE.test(p.text) || SHORT_FLAG_OR_WORD_RE.test(p.text))) return false;
  let last: Partial | undefined;
  for (const part of parts) {
    const flag = FLAG_RE.exec(part.text);
    const at = start + part.at;
    if (flag) {
      last = {
        kind: 'command',
        subject: `${program} --${flag[1]}`,
        span: [at, at + 2 + (flag[1] as string).length],
      };
      out.push(last);
    } else if (last) last.span = [last.span[0], at + part.text.length];
  }
  return true;
}

function camelCase(key: string): string {
  return key.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
}

/**
 * `nodemon({ script }).on('start', ...).on('crash', ...)`, `nodemon.emit('quit')`: an event named
 * on a chain that starts with the project (its package or what it was imported as) is one the
 * project emits or handles; on anything else (`process.on('exit')`) it says nothing of it.
 */
function eventsOfProject(text: string, fence: FencedBlock, bindings: ProjectBindings, out: Partial[]): void {
  const body = text.slice(fence.start, fence.end);
  for (const m of body.matchAll(EVENT_CALL_RE)) {
    const head = chainHead(body, m.index ?? 0);
    if (head === undefined || !(bindings.receivers.has(head) || bindings.imported.has(head))) continue;
    const name = m[2] as string;
    const start = fence.start + (m.index ?? 0) + m[0].length - 1 - name.length;
    out.push({ kind: 'event', subject: name, span: [start, start + name.length] });
  }
}

/** The name a method chain starts with, read back from the `.` of one of its calls. */
function chainHead(body: string, dot: number): string | undefined {
  let i = dot - 1;
  for (let step = 0; step < MAX_CHAIN_STEPS && i >= 0; step++) {
    while (i >= 0 && /\s/.test(body[i] as string)) i--;
    const c = body[i];
    if (c === ')' || c === ']' || c === '}') {
      const open = openingOf(body, i);
      if (open === undefined) return undefined;
      i = open - 1;
      continue;
    }
    const name = /[A-Za-z_$][\w$]*$/.exec(body.slice(Math.max(0, i - 80), i + 1))?.[0];
    if (name === undefined) return undefined;
    let before = i - name.length;
    while (before >= 0 && /\s/.test(body[before] as string)) before--;
    if (body[before] !== '.') return name;
    i = before - 1;
  }
  return undefined;
}

/** Where the bracket closed at `close` opens, counting nesting (strings are not told apart). */
function openingOf(body: string, close: number): number | undefined {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const c = body[i] as string;
    if (c === ')' || c === ']' || c === '}') depth++;
    else if ((c === '(' || c === '[' || c === '{') && --depth === 0) return i;
  }
  return undefined;
}
