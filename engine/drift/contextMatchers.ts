import type { FencedBlock } from '../extract/scanContext';
import type { ExtractedClaim } from './claimTypes';
import type { ProjectBindings } from './projectBindings';
import type { TextRole } from './textRoles';

type Partial = Omit<ExtractedClaim, 'negated'>;

/**
 * Claims only the role of a stretch of text reveals, which the entity extractor does not name:
 * the option keys an example passes to the project (`pino({ level: 'info' })`) or a config
 * example sets (`allowUncaught: true` in a `.mocharc.yml` block), the flags of the project's
 * program written alone in prose (`--forbid-only`), and methods written with a leading dot
 * (`.option()`).
 */
export interface MatcherContext {
  text: string;
  fences: ReadonlyArray<{ fence: FencedBlock; role: TextRole }>;
  bindingsOf(fence: FencedBlock): ProjectBindings;
  roleAt(position: number): TextRole;
  programs: ReadonlySet<string>;
}

const CONFIG_LANGUAGES = new Set(['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml']);
const OBJECT_KEY_RE = /(?<![\w$.'"`?])([A-Za-z_$][\w$]*)\s*:(?![:/])/g;
const CONFIG_KEY_RE = /^[ \t-]*["']?([A-Za-z_$][\w$-]*)["']?\s*[:=]/gm;
const DECLARED_RE = /\b(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/g;
const INLINE_CODE_RE = /`([^`\n]{1,200})`/g;
const FLAG_RE = /^--([a-z][\w-]*)(?:[ =]<?[\w.<>|-]*>?)?$/;
const DOTTED_METHOD_RE = /^\.([A-Za-z_$][\w$]*)(\(.*\))?$/;

export function contextClaims(ctx: MatcherContext): Partial[] {
  const out: Partial[] = [];
  for (const { fence, role } of ctx.fences) {
    if (role !== 'example') continue;
    if (CONFIG_LANGUAGES.has(fence.language)) configKeys(ctx.text, fence, out);
    else objectKeys(ctx.text, fence, ctx.bindingsOf(fence), out);
  }
  inlineForms(ctx, out);
  return out;
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
  const calls = projectCallArguments(body, [...bindings.receivers, ...bindings.imported]);
  const declared = new Set([...body.matchAll(DECLARED_RE)].map((m) => m[1] as string));
  for (const m of body.matchAll(OBJECT_KEY_RE)) {
    const key = m[1] as string;
    const at = m.index ?? 0;
    if (declared.has(key) || /^(?:https?|default|case)$/.test(key) || insideString(body, at)) continue;
    const start = fence.start + at;
    const claim: Partial = { kind: 'symbol', subject: key, span: [start, start + key.length] };
    if (!calls.some(([open, close]) => at > open && at < close)) claim.confidence = 'low';
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
    let depth = 0;
    for (let i = open; i < body.length; i++) {
      if (body[i] === '(') depth++;
      else if (body[i] === ')' && --depth === 0) {
        spans.push([open, i]);
        break;
      }
    }
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
    const flag = FLAG_RE.exec(code);
    if (flag && program !== undefined) {
      const end = start + 2 + (flag[1] as string).length;
      out.push({ kind: 'command', subject: `${program} --${flag[1]}`, span: [start, end] });
      continue;
    }
    const method = DOTTED_METHOD_RE.exec(code);
    if (method) {
      const name = method[1] as string;
      const claim: Partial = { kind: 'symbol', subject: name, span: [start + 1, start + 1 + name.length] };
      if (method[2] === undefined) claim.confidence = 'low';
      out.push(claim);
    }
  }
}

function camelCase(key: string): string {
  return key.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
}
