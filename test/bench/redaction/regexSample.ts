// A string matching a regular expression (RE2 syntax as gitleaks writes it), like the reggen
// package gitleaks' secrets.NewSecret uses: random characters from each class, a random count
// within each bound (unbounded repeats at most one more than their minimum), a random branch of
// each alternation. Undefined for syntax it does not know (the case is then skipped).

type Node =
  | { kind: 'chars'; set: string }
  | { kind: 'group'; branches: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const WORD = `${UPPER}${LOWER}${DIGITS}_`;
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const CLASSES: Record<string, string> = { d: DIGITS, w: WORD, s: ' ', D: LOWER, W: '-', S: LOWER };

export function sampleOf(pattern: string, random: () => number): string | undefined {
  try {
    const parser = { src: pattern.replace(/^\(\?[imsU]+\)/, ''), i: 0 };
    const branches = alternation(parser);
    if (parser.i !== parser.src.length) return undefined;
    return generate({ kind: 'group', branches }, random);
  } catch {
    return undefined;
  }
}

function generate(node: Node, random: () => number): string {
  const pick = (n: number) => Math.floor(random() * n);
  switch (node.kind) {
    case 'chars':
      return node.set[pick(node.set.length)] ?? '';
    case 'group': {
      const branch = node.branches[pick(node.branches.length)] ?? [];
      return branch.map((n) => generate(n, random)).join('');
    }
    case 'repeat': {
      const count = node.min + pick(node.max - node.min + 1);
      return Array.from({ length: count }, () => generate(node.node, random)).join('');
    }
  }
}

interface Parser {
  src: string;
  i: number;
}

function alternation(p: Parser): Node[][] {
  const branches: Node[][] = [[]];
  while (p.i < p.src.length && p.src[p.i] !== ')') {
    if (p.src[p.i] === '|') {
      p.i++;
      branches.push([]);
      continue;
    }
    const atom = parseAtom(p);
    if (atom === undefined) continue;
    (branches[branches.length - 1] as Node[]).push(quantified(p, atom));
  }
  return branches;
}

function quantified(p: Parser, atom: Node): Node {
  const c = p.src[p.i];
  let min: number;
  let max: number;
  if (c === '*' || c === '+' || c === '?') {
    p.i++;
    min = c === '+' ? 1 : 0;
    max = c === '?' ? 1 : min + 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.src.slice(p.i));
    if (!m) throw new Error('bad repeat');
    p.i += m[0].length;
    min = Number(m[1]);
    max = m[2] === undefined ? min : m[3] ? Number(m[3]) : min + 1;
  } else return atom;
  if (p.src[p.i] === '?') p.i++; // lazy
  return { kind: 'repeat', node: atom, min, max };
}

function parseAtom(p: Parser): Node | undefined {
  const c = p.src[p.i++] as string;
  if (c === '^' || c === '$') return undefined;
  if (c === '.') return { kind: 'chars', set: WORD };
  if (c === '(') {
    if (p.src[p.i] === '?') {
      const flags = /^\?(?:[imsU-]*:|P?<\w+>|[imsU]+\))/.exec(p.src.slice(p.i));
      if (!flags) throw new Error('bad group');
      p.i += flags[0].length;
      if (flags[0].endsWith(')')) return undefined; // (?i) alone
    }
    const branches = alternation(p);
    if (p.src[p.i++] !== ')') throw new Error('unclosed group');
    return { kind: 'group', branches };
  }
  if (c === '[') return { kind: 'chars', set: charClass(p) };
  if (c === '\\') {
    const e = p.src[p.i++] as string;
    if (e === 'b' || e === 'B' || e === 'A' || e === 'z') return undefined;
    if (CLASSES[e]) return { kind: 'chars', set: CLASSES[e] };
    if (e === 'x') {
      const hex = /^[0-9a-fA-F]{2}/.exec(p.src.slice(p.i))?.[0];
      if (!hex) throw new Error('bad escape');
      p.i += 2;
      return { kind: 'chars', set: String.fromCharCode(parseInt(hex, 16)) };
    }
    if (e === 'n') return { kind: 'chars', set: '\n' };
    if (e === 't') return { kind: 'chars', set: '\t' };
    if (/[A-Za-z0-9]/.test(e)) throw new Error(`escape \\${e}`);
    return { kind: 'chars', set: e };
  }
  return { kind: 'chars', set: c };
}

function charClass(p: Parser): string {
  let negate = false;
  if (p.src[p.i] === '^') {
    negate = true;
    p.i++;
  }
  let set = '';
  let first = true;
  while (p.i < p.src.length && (p.src[p.i] !== ']' || first)) {
    first = false;
    let c = p.src[p.i++] as string;
    if (c === '[' && p.src[p.i] === ':') {
      const m = /^:(\w+):\]/.exec(p.src.slice(p.i));
      if (!m) throw new Error('bad class');
      p.i += m[0].length;
      const named: Record<string, string> = {
        alnum: UPPER + LOWER + DIGITS,
        alpha: UPPER + LOWER,
        digit: DIGITS,
        upper: UPPER,
        lower: LOWER,
        xdigit: `${DIGITS}abcdef`,
      };
      set += named[m[1] as string] ?? '';
      continue;
    }
    if (c === '\\') {
      const e = p.src[p.i++] as string;
      if (CLASSES[e]) {
        set += CLASSES[e];
        continue;
      }
      c = e === 'n' ? '\n' : e === 't' ? '\t' : e;
    }
    if (p.src[p.i] === '-' && p.src[p.i + 1] !== ']' && p.i + 1 < p.src.length) {
      p.i++;
      let to = p.src[p.i++] as string;
      if (to === '\\') to = p.src[p.i++] as string;
      for (let code = c.charCodeAt(0); code <= to.charCodeAt(0); code++) set += String.fromCharCode(code);
    } else set += c;
  }
  if (p.src[p.i++] !== ']') throw new Error('unclosed class');
  if (!negate) return set;
  const outside = [...PRINTABLE].filter((ch) => !set.includes(ch)).join('');
  return outside.replace(/\s/g, '') || 'x';
}
