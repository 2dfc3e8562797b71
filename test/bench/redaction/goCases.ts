// The true- and false-positive cases of gitleaks' rules, read from their Go source
// (cmd/generate/config/rules/*.go: `tps := ...`, `fps := ...`, checked by utils.Validate). Only the
// expressions those files use are understood: string literals, `+`, `[]string{...}`, `append`,
// utils.GenerateSampleSecret(s) (templates read from the same checkout), the utils pattern helpers
// and secrets.NewSecret (a string generated from the regex, as gitleaks does). A case built from
// anything else is skipped and counted.
import { sampleOf } from './regexSample';

export interface GoCase {
  rule: string;
  file: string;
  label: 'secret' | 'clean';
  text: string;
  /** The secret inside `text`, when the case was generated from one. */
  secret?: string;
}

/** A value an expression evaluates to: a string (with its secret, if generated) or a list of them. */
type Value = { s: string; secret?: string } | Array<{ s: string; secret?: string }>;

export interface GoContext {
  /** GenerateSampleSecrets' templates with {i}, {I} and {s}. */
  templates: string[];
  random: () => number;
}

class Unsupported extends Error {}

/** Every case of one rules file, and how many expressions were skipped. */
export function casesOfRuleFile(
  file: string,
  source: string,
  context: GoContext,
): { cases: GoCase[]; skipped: number } {
  const cases: GoCase[] = [];
  let skipped = 0;
  // One rule per function: `func Name() *config.Rule {` ... up to the next `func`.
  for (const body of source.split(/\nfunc /).slice(1)) {
    const rule = /RuleID:\s*"([^"]+)"/.exec(body)?.[1];
    if (!rule) continue;
    const vars: Record<string, Value> = {};
    for (const m of body.matchAll(/\n\s*(tps|fps)\s*:?=\s*/g)) {
      const name = m[1] as 'tps' | 'fps';
      try {
        const { value } = expression(body, (m.index ?? 0) + m[0].length, vars, context);
        vars[name] = value;
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        skipped++;
      }
    }
    for (const [name, label] of [
      ['tps', 'secret'],
      ['fps', 'clean'],
    ] as const) {
      const value = vars[name];
      for (const v of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
        cases.push({ rule, file, label, text: v.s, ...(v.secret ? { secret: v.secret } : {}) });
      }
    }
  }
  return { cases, skipped };
}

/** GenerateSampleSecrets' templates: the string values of its `samples` map. */
export function sampleTemplates(generateGo: string): string[] {
  const start = generateGo.indexOf('samples := map[string]string{');
  const end = generateGo.indexOf('\n\t}\n', start);
  const templates: string[] = [];
  for (const line of generateGo.slice(start, end).split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('//') || !trimmed.startsWith('"')) continue;
    const key = stringLiteral(trimmed, 0);
    let i = key.end;
    while (trimmed[i] === ' ' || trimmed[i] === ':') i++;
    templates.push(stringLiteral(trimmed, i).value);
  }
  return templates;
}

interface Parsed {
  value: Value;
  end: number;
}

function expression(src: string, at: number, vars: Record<string, Value>, context: GoContext): Parsed {
  let left = term(src, skip(src, at), vars, context);
  for (;;) {
    const i = skip(src, left.end);
    if (src[i] !== '+') return left;
    const right = term(src, skip(src, i + 1), vars, context);
    left = { value: concat(left.value, right.value), end: right.end };
  }
}

function term(src: string, at: number, vars: Record<string, Value>, context: GoContext): Parsed {
  const c = src[at];
  if (c === '"' || c === '`') {
    const { value, end } = stringLiteral(src, at);
    return { value: { s: value }, end };
  }
  if (src.startsWith('[]string{', at)) {
    const items: Array<{ s: string; secret?: string }> = [];
    let i = at + '[]string{'.length;
    for (;;) {
      i = skip(src, i);
      if (src[i] === '}') return { value: items, end: i + 1 };
      const item = expression(src, i, vars, context);
      items.push(...(Array.isArray(item.value) ? item.value : [item.value]));
      i = skip(src, item.end);
      if (src[i] === ',') i++;
    }
  }
  if (src.startsWith('nil', at)) return { value: [], end: at + 3 };
  const call = /^([A-Za-z_][\w.]*)\s*\(/.exec(src.slice(at, at + 80));
  if (call) {
    const args: Value[] = [];
    let i = at + call[0].length;
    for (;;) {
      i = skip(src, i);
      if (src[i] === ')') break;
      const arg = expression(src, i, vars, context);
      args.push(arg.value);
      i = skip(src, arg.end);
      if (src.startsWith('...', i)) i = skip(src, i + 3);
      if (src[i] === ',') i++;
    }
    return { value: callValue(call[1] as string, args, context), end: i + 1 };
  }
  const name = /^[A-Za-z_]\w*/.exec(src.slice(at, at + 80))?.[0];
  if (name && vars[name] !== undefined) return { value: vars[name], end: at + name.length };
  throw new Unsupported(src.slice(at, at + 40));
}

const PATTERNS: Record<string, (size: string) => string> = {
  'utils.Numeric': (n) => `[0-9]{${n}}`,
  'utils.Hex': (n) => `[a-f0-9]{${n}}`,
  'utils.AlphaNumeric': (n) => `[a-z0-9]{${n}}`,
  'utils.AlphaNumericExtendedShort': (n) => `[a-z0-9_-]{${n}}`,
  'utils.AlphaNumericExtended': (n) => `[a-z0-9=_\\-]{${n}}`,
  'utils.AlphaNumericExtendedLong': (n) => `[a-z0-9\\/=_\\+\\-]{${n}}`,
};

function callValue(name: string, args: Value[], context: GoContext): Value {
  const one = (v: Value | undefined) => {
    if (v === undefined || Array.isArray(v)) throw new Unsupported(name);
    return v;
  };
  if (name === 'append') {
    const [first, ...rest] = args;
    const list = Array.isArray(first) ? [...first] : first ? [first] : [];
    for (const r of rest) list.push(...(Array.isArray(r) ? r : [r]));
    return list;
  }
  if (PATTERNS[name]) return { s: PATTERNS[name](one(args[0]).s) };
  if (name === 'utils.Hex8_4_4_4_12')
    return { s: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' };
  if (name === 'secrets.NewSecret') {
    const sample = sampleOf(one(args[0]).s, context.random);
    if (sample === undefined) throw new Unsupported(one(args[0]).s);
    return { s: sample, secret: sample };
  }
  if (name === 'utils.GenerateSampleSecret') {
    const secret = one(args[1]).s;
    return { s: `${one(args[0]).s}_api_token = "${secret}"`, secret };
  }
  if (name === 'utils.GenerateSampleSecrets') {
    const id = one(args[0]).s;
    const secret = one(args[1]).s;
    return context.templates.map((t) => ({
      s: t.replaceAll('{i}', id).replaceAll('{I}', id.toUpperCase()).replaceAll('{s}', secret),
      secret,
    }));
  }
  throw new Unsupported(name);
}

function concat(a: Value, b: Value): Value {
  if (Array.isArray(a) || Array.isArray(b)) throw new Unsupported('+ of a list');
  // A secret built of a literal prefix and generated parts (`"ghp_" + NewSecret(...)`) is the whole.
  return { s: a.s + b.s, ...(a.secret || b.secret ? { secret: a.s + b.s } : {}) };
}

/** Skips spaces, newlines and comments. */
function skip(src: string, at: number): number {
  let i = at;
  for (;;) {
    while (i < src.length && /\s/.test(src[i] as string)) i++;
    if (src.startsWith('//', i)) {
      const nl = src.indexOf('\n', i);
      i = nl === -1 ? src.length : nl + 1;
    } else if (src.startsWith('/*', i)) {
      const close = src.indexOf('*/', i);
      i = close === -1 ? src.length : close + 2;
    } else return i;
  }
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '"': '"',
  '\\': '\\',
  "'": "'",
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** A Go string literal: interpreted ("..." with escapes) or raw (`...`). */
export function stringLiteral(src: string, at: number): { value: string; end: number } {
  if (src[at] === '`') {
    const close = src.indexOf('`', at + 1);
    if (close === -1) throw new Unsupported('unclosed raw string');
    return { value: src.slice(at + 1, close), end: close + 1 };
  }
  if (src[at] !== '"') throw new Unsupported('not a string');
  let out = '';
  for (let i = at + 1; i < src.length; i++) {
    const c = src[i] as string;
    if (c === '"') return { value: out, end: i + 1 };
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = src[++i] as string;
    if (ESCAPES[e] !== undefined) out += ESCAPES[e];
    else if (e === 'x') {
      out += String.fromCharCode(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      out += String.fromCodePoint(parseInt(src.slice(i + 1, i + 1 + n), 16));
      i += n;
    } else if (/[0-7]/.test(e)) {
      out += String.fromCharCode(parseInt(src.slice(i, i + 3), 8));
      i += 2;
    } else throw new Unsupported(`escape \\${e}`);
  }
  throw new Unsupported('unclosed string');
}
