/**
 * The members the classes and interfaces an example declares give themselves: `category` and
 * `parentCategory` in `export class Category { @ManyToOne(...) parentCategory: Category; }`. A
 * member of that name read in the same example (`category => category.parentCategory`, a callback
 * the project fills with the reader's entity) is the reader's model, not the project's API.
 */
export function exampleMembers(code: string): Set<string> {
  const members = new Set<string>();
  if (!/\b(?:class|interface)\b/.test(code)) return members;
  for (const header of code.matchAll(TYPE_HEADER_RE)) {
    const open = code.indexOf('{', header.index + header[0].length - 1);
    if (open < 0) continue;
    for (const line of topLevelLines(code, open + 1)) {
      const name = MEMBER_LINE_RE.exec(line)?.[1];
      if (name !== undefined && !KEYWORDS.has(name)) members.add(name);
    }
  }
  return members;
}

/** `class Post extends Base<T> {`, `export interface Options {`: a body follows. */
const TYPE_HEADER_RE = /\b(?:class|interface)\s+[A-Za-z_$][\w$]*[^{;\n]*\{/g;

/** `  @Column() title: string;`, `  private readonly id?: number`, `  findByName(a, b) {`. */
const MEMBER_LINE_RE =
  /^\s*(?:@[\w$.]+(?:\([^)]*\))?\s*)*(?:(?:public|private|protected|readonly|static|async|declare|abstract|override|get|set)\s+)*(?<![\w$.@])([A-Za-z_$][\w$]*)\s*[?!]?\s*(?:[:=]|\()/;

const KEYWORDS = new Set(['constructor', 'return', 'if', 'for', 'while', 'switch', 'const', 'let', 'var']);

/** The lines of a block's own level (nested bodies left out), from just after its `{` to its `}`. */
function topLevelLines(code: string, start: number): string[] {
  let depth = 0;
  let line = '';
  const lines: string[] = [];
  for (let i = start; i < code.length; i++) {
    const c = code[i] as string;
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      if (depth === 0) break;
      depth--;
    }
    if (c === '\n') {
      lines.push(line);
      line = '';
    } else if (depth === 0 || (depth === 1 && (c === '(' || c === '{' || c === '['))) line += c;
  }
  lines.push(line);
  return lines;
}
