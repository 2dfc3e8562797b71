/** Parameter lists as a memory writes them and as the code declares them, compared by name and type. */

export interface Parameter {
  name: string;
  /** The annotation, spaces removed (`Record<string,T>`), when one is written. */
  type?: string;
}

const MODIFIERS_RE = /^(?:(?:public|private|protected|readonly|override|const|mut|ref|in|out|final)\s+)+/;
const DECORATOR_RE = /^@[\w.]+(?:\([^)]*\))?\s*/;

/** The text inside the first balanced `(...)` at or after `from`, with where it starts; undefined if unbalanced. */
export function parameterListAt(
  text: string,
  from: number,
): { inside: string; open: number; close: number } | undefined {
  const open = text.indexOf('(', from);
  if (open === -1) return undefined;
  let depth = 0;
  for (let i = open; i < text.length && i < open + 400; i++) {
    const c = text[i] as string;
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return { inside: text.slice(open + 1, i), open, close: i };
  }
  return undefined;
}

/** `input: string, opts = {}` -> [{input, string}, {opts}]; Python's leading self/cls left out. */
export function parametersOf(inside: string): Parameter[] {
  const parameters = parameterTexts(inside).map(parameterOf);
  if (parameters[0] && /^(?:self|cls|&?self|&mut self)$/.test(parameters[0].name)) parameters.shift();
  return parameters;
}

function parameterOf(text: string): Parameter {
  const withoutDefault = cutTopLevel(text, '=');
  const colon = topLevelIndex(withoutDefault, ':');
  const head = (colon === -1 ? withoutDefault : withoutDefault.slice(0, colon)).trim();
  const name = /^[{[]/.test(head)
    ? head.replace(/\s+/g, '')
    : (/[\w$]+/.exec(head.replace(/^\.{3}|^\*{1,2}/, ''))?.[0] ?? head);
  const type = colon === -1 ? undefined : withoutDefault.slice(colon + 1).replace(/\s+/g, '');
  return type ? { name: name.replace(/\?$/, ''), type } : { name: name.replace(/\?$/, '') };
}

function cutTopLevel(text: string, char: string): string {
  const at = topLevelIndex(text, char);
  return at === -1 ? text : text.slice(0, at);
}

function topLevelIndex(text: string, char: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if ('([{<'.includes(c)) depth++;
    else if (')]}'.includes(c) || (c === '>' && text[i - 1] !== '=')) depth--;
    else if (c === char && depth === 0 && !(char === '=' && text[i + 1] === '>')) return i;
  }
  return -1;
}

/**
 * Whether a declared parameter list is the one a memory states: as many parameters, the same
 * names, and the same type wherever both give one. A memory may leave types out.
 */
export function sameParameters(stated: readonly Parameter[], declared: readonly Parameter[]): boolean {
  if (stated.length !== declared.length) return false;
  return stated.every((p, i) => {
    const d = declared[i] as Parameter;
    return p.name === d.name && (p.type === undefined || d.type === undefined || p.type === d.type);
  });
}

/**
 * The text inside each parameter list that follows `name(` in a source text (declarations, and
 * calls, which rarely repeat a declaration's names): what a version of a file offers a signature
 * or call claim.
 */
export function parameterInsidesOf(text: string, name: string): string[] {
  const lists: string[] = [];
  const re = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}\\s*(?:<[^()]{0,80}>)?\\s*\\(`, 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const list = parameterListAt(text, m.index + m[0].length - 1);
    if (list) lists.push(list.inside);
  }
  return lists;
}

/**
 * How many arguments a declared parameter list accepts: parameters with a default or a `?` are
 * optional, a rest parameter (`...args`, `*args`) takes any number more.
 */
export function arityOf(inside: string): { min: number; max: number } {
  const parts = parameterTexts(inside);
  if (parts[0] && /^(?:self|cls|&?self|&mut self)\b/.test(parts[0])) parts.shift();
  let min = 0;
  let max = 0;
  for (const part of parts) {
    if (/^(?:\.{3}|\*{1,2}\w)/.test(part)) return { min, max: Number.POSITIVE_INFINITY };
    max++;
    const head = part.split(':')[0] ?? part;
    if (topLevelIndex(part, '=') === -1 && !head.trim().endsWith('?')) min = max;
  }
  return { min, max };
}

/**
 * Whether a parameter list reads as a declaration's rather than a call's arguments: each
 * parameter, before its type and default, is a name (`url`, `opts?`, `...rest`, `*args`) or a
 * destructuring pattern whose targets are names. A string, number or object literal
 * (`client('https://x', {a: 1})`) is an argument: its text must never become a signature.
 */
export function isDeclarationList(inside: string): boolean {
  return parameterTexts(inside).every((text) => {
    const withoutDefault = cutTopLevel(text, '=');
    const colon = topLevelIndex(withoutDefault, ':');
    const head = (colon === -1 ? withoutDefault : withoutDefault.slice(0, colon)).trim();
    if (/^[{[]/.test(head)) return !/[:=]\s*(?:['"`\d{[]|true\b|false\b|null\b)/.test(head);
    return /^(?:\.{3}|\*{1,2}|&(?:mut\s+)?)?[A-Za-z_$][\w$]*\??$/.test(head);
  });
}

/** Each parameter's text, without decorators and modifiers (Python's `/` and `*` markers left out). */
function parameterTexts(inside: string): string[] {
  return splitTopLevel(inside)
    .map((p) => p.trim().replace(DECORATOR_RE, '').replace(MODIFIERS_RE, ''))
    .filter((p) => p.length > 0 && p !== '/' && p !== '*');
}

/** `inside` cut at each `separator` outside brackets: parameters at `,`, a union's members at `|`. */
export function splitTopLevel(inside: string, separator = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < inside.length; i++) {
    const c = inside[i] as string;
    if ('([{<'.includes(c)) depth++;
    // The `>` of an arrow (`(err) => void`) closes nothing.
    else if (')]}'.includes(c) || (c === '>' && inside[i - 1] !== '=')) depth--;
    if (c === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}
