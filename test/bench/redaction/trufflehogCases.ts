// Test cases of trufflehog's detectors (pkg/detectors/**/<name>_test.go), read as data: each
// pattern test lists inputs and the secrets the detector must find in them (`want`). Only the
// cases that find something are used, as secrets that redaction must remove: a case that wants
// nothing is a detector's own rule (a keyword too far away, a wrong length) and often still holds
// a credential a redactor should hide, so it is no label for precision.
// The Go is not parsed in full: string literals, string variables, `fmt.Sprintf` with %s / %v / %q
// / %d and `+` concatenation are evaluated; a case whose input or want uses anything else is
// skipped and counted.

export interface TrufflehogCase {
  detector: string;
  text: string;
  /** Pieces of the wanted results that occur in the input: each must be gone after redaction. */
  secrets: string[];
}

type Value = string | undefined;

/** The Go string literal at `at` (interpreted or raw) and where it ends, or undefined. */
function literalAt(src: string, at: number): { value: string; end: number } | undefined {
  const quote = src[at];
  if (quote === '`') {
    const end = src.indexOf('`', at + 1);
    return end === -1 ? undefined : { value: src.slice(at + 1, end), end: end + 1 };
  }
  if (quote !== '"') return undefined;
  let value = '';
  for (let i = at + 1; i < src.length; i++) {
    const ch = src[i];
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '\n') return undefined;
    if (ch !== '\\') {
      value += ch;
      continue;
    }
    const next = src[++i] ?? '';
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', "'": "'" };
    if (next in simple) value += simple[next];
    else if (next === 'x') {
      value += String.fromCharCode(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (next === 'u') {
      value += String.fromCharCode(parseInt(src.slice(i + 1, i + 5), 16));
      i += 4;
    } else value += next;
  }
  return undefined;
}

function skipSpace(src: string, at: number): number {
  while (at < src.length && /\s/.test(src[at] ?? '')) at++;
  return at;
}

/** The characters outside string literals from `from` on; null, and the end, at a broken literal. */
function* outsideLiterals(src: string, from: number): Generator<{ ch: string; i: number } | null> {
  for (let i = from; i < src.length; i++) {
    const ch = src[i] ?? '';
    if (ch !== '"' && ch !== '`') {
      yield { ch, i };
      continue;
    }
    const lit = literalAt(src, i);
    if (!lit) {
      yield null;
      return;
    }
    i = lit.end - 1;
  }
}

/** Splits the arguments of a call whose '(' is at `open`; returns their source spans and the end. */
function callArguments(src: string, open: number): { args: string[]; end: number } | undefined {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (const at of outsideLiterals(src, open)) {
    if (at === null) return undefined;
    const { ch, i } = at;
    if (ch === '(' || ch === '{' || ch === '[') depth++;
    else if (ch === ')' || ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) {
        args.push(src.slice(start, i));
        return { args: args.map((a) => a.trim()).filter(Boolean), end: i + 1 };
      }
    } else if (ch === ',' && depth === 1) {
      args.push(src.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

function sprintf(format: string, args: Value[]): Value {
  let n = 0;
  let failed = false;
  const out = format.replace(/%([svqd%])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    const arg = args[n++];
    if (arg === undefined) failed = true;
    return verb === 'q' ? JSON.stringify(arg ?? '') : (arg ?? '');
  });
  return failed ? undefined : out;
}

/** Evaluates a Go string expression: literals, known variables, Sprintf and `+`. */
function evaluate(expr: string, vars: Map<string, string>): Value {
  const parts: Value[] = [];
  let at = skipSpace(expr, 0);
  while (at < expr.length) {
    const lit = literalAt(expr, at);
    if (lit) {
      parts.push(lit.value);
      at = lit.end;
    } else {
      const call = /^fmt\.Sprintf\s*\(/.exec(expr.slice(at));
      const name = /^[A-Za-z_][\w.]*/.exec(expr.slice(at));
      if (call) {
        const parsed = callArguments(expr, at + call[0].length - 1);
        if (!parsed || parsed.args.length === 0) return undefined;
        const [format, ...rest] = parsed.args.map((a) => evaluate(a, vars));
        if (format === undefined) return undefined;
        parts.push(sprintf(format, rest));
        at = parsed.end;
      } else if (name) {
        parts.push(vars.get(name[0]));
        at += name[0].length;
      } else return undefined;
    }
    at = skipSpace(expr, at);
    if (at >= expr.length) break;
    if (expr[at] !== '+') return undefined;
    at = skipSpace(expr, at + 1);
  }
  if (parts.length === 0 || parts.some((p) => p === undefined)) return undefined;
  return parts.join('');
}

/** String variables and constants: `name = "..."`, `name := ...`, in var/const blocks or not. */
function stringVariables(src: string): Map<string, string> {
  const vars = new Map<string, string>();
  const assignment = /(?:^|\n)\s*(?:var\s+|const\s+)?([A-Za-z_]\w*)\s*(?:string\s*)?:?=\s*/g;
  for (let m = assignment.exec(src); m; m = assignment.exec(src)) {
    const at = m.index + m[0].length;
    const lineEnd = src[at] === '`' ? src.indexOf('`', at + 1) + 1 : src.indexOf('\n', at);
    const expr = src.slice(at, lineEnd === -1 || lineEnd === 0 ? undefined : lineEnd);
    const value = evaluate(expr.replace(/\/\/[^"`]*$/, ''), vars);
    if (value !== undefined) vars.set(m[1] ?? '', value);
  }
  return vars;
}

/** The source span of a struct field's value (`input: ...,`) starting at `at`. */
function fieldValue(src: string, from: number): { expr: string; end: number } | undefined {
  let depth = 0;
  for (const at of outsideLiterals(src, from)) {
    if (at === null) return undefined;
    const { ch, i } = at;
    if (ch === '(' || ch === '{' || ch === '[') depth++;
    else if (ch === ')' || ch === '}' || ch === ']') {
      if (depth === 0) return { expr: src.slice(from, i).trim(), end: i };
      depth--;
    } else if ((ch === ',' || ch === '\n') && depth === 0) return { expr: src.slice(from, i).trim(), end: i };
  }
  return undefined;
}

/** The wanted results: `[]string{a, b}` evaluated, `nil` / `[]string{}` empty. */
function wanted(expr: string, vars: Map<string, string>): string[] | undefined {
  if (expr === 'nil' || /^\[\]string\{\s*\}$/.test(expr)) return [];
  const open = expr.indexOf('{');
  if (!expr.startsWith('[]string') || open === -1) return undefined;
  const parsed = callArguments(expr, open);
  if (!parsed) return undefined;
  const values = parsed.args.map((a) => evaluate(a, vars));
  return values.some((v) => v === undefined) ? undefined : (values as string[]);
}

/** A host, a URL or a path: what a credential belongs to, not the credential. */
const LOCATION_RE = /^(?:\/\/|[a-z][\w+.-]*:\/\/)|^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?::\d+)?(?:\/.*)?$/i;

/**
 * What of a wanted result the input must lose: the whole result when the input holds it, else the
 * longest of its pieces that the input holds and that is no host, URL or path. Detectors join a
 * credential with what it belongs to (`id:secret`, `secret:host`, `email:key`), and the credential
 * is the longest of the rest nearly always; an account id or a host is no secret by itself.
 */
function secretPieces(quoted: string, input: string): string[] {
  const want = quoted.replace(/^(["'`])(.*)\1$/s, '$2'); // some tests want the value with its quotes
  if (input.includes(want)) return [want];
  const pieces = want
    .split(/[:;|,\s]+/)
    .filter((piece) => piece.length >= 8 && input.includes(piece) && !LOCATION_RE.test(piece));
  const longest = pieces.sort((a, b) => b.length - a.length)[0];
  return longest === undefined ? [] : [longest];
}

export function casesOfTestFile(detector: string, src: string): { cases: TrufflehogCase[]; skipped: number } {
  const vars = stringVariables(src);
  const cases: TrufflehogCase[] = [];
  let skipped = 0;
  const inputField = /\binput:\s*/g;
  for (let m = inputField.exec(src); m; m = inputField.exec(src)) {
    const input = fieldValue(src, m.index + m[0].length);
    if (!input) {
      skipped++;
      continue;
    }
    const wantField = /\bwant:\s*/g;
    wantField.lastIndex = input.end;
    const w = wantField.exec(src);
    const nextInput = src.indexOf('input:', input.end);
    if (!w || (nextInput !== -1 && w.index > nextInput)) {
      skipped++;
      continue;
    }
    const want = fieldValue(src, w.index + w[0].length);
    const text = evaluate(input.expr, vars);
    const wants = want ? wanted(want.expr, vars) : undefined;
    if (text === undefined || wants === undefined) {
      skipped++;
      continue;
    }
    if (wants.length === 0) continue;
    const secrets = [...new Set(wants.flatMap((v) => secretPieces(v, text)))];
    if (secrets.length === 0) skipped++;
    else cases.push({ detector, text, secrets });
  }
  return { cases, skipped };
}
