/**
 * Where source text gives `name` a definition, in the forms JavaScript and TypeScript attach a
 * function or property to an object or module, each with its owner: `x.name = ...` (owner `x`;
 * `X.prototype.name` and `this.name` in class X: `X`; `module.exports.name`: `exports`), a class
 * or interface member (the class), a method or key of an object literal or a destructuring
 * pattern (`object`: `name: ...`, `{ name }`, an options pattern's `name = false`), a name in an
 * export list or an exported declaration (`exports`), another top-level declaration (`module`).
 * Uses are not definitions: `x.name` read, `x.name(...)` called, the name inside a string or a
 * comment, a local declared in a function.
 *
 * Generous on purpose: a member counts as removed only when no form is left, so a form read too
 * widely can only keep a claim "present", never flag one.
 */
export function memberOwners(text: string, name: string): Set<string> {
  return text.includes(name) ? ownersInCode(withoutComments(text), name) : new Set();
}

/** memberOwners of code already read through withoutComments (a check strips each file once). */
export function ownersInCode(code: string, name: string): Set<string> {
  const owners = new Set<string>();
  if (!code.includes(name)) return owners;
  const forms = formsOf(name);
  const defining = (form: RegExp) => [...code.matchAll(form)].filter((m) => !isRefusalStub(code, m, name));
  for (const m of defining(forms.assignment)) {
    const target = m[1] ?? '';
    owners.add(target === 'this' ? (enclosingType(code, m.index) ?? 'this') : target);
  }
  for (const m of code.matchAll(forms.attached)) owners.add(m[1] ?? m[2] ?? 'object');
  for (const m of defining(forms.member)) owners.add(enclosingType(code, m.index) ?? 'object');
  const keyed = (form: RegExp) => defining(form).filter((m) => !isImportBinding(code, m));
  if (forms.key.some((form) => keyed(form).length > 0)) owners.add('object');
  if (forms.exported.some((form) => defining(form).length > 0)) owners.add('exports');
  if (defining(forms.topLevel).length > 0) owners.add('module');
  return owners;
}

/**
 * A definition kept only to say the name is gone: `export const prefetch = () => { throw new
 * Error('prefetch has been renamed to preloadData'); }`. What follows the name, up to the first
 * line that closes a block, throws an error saying so.
 */
function isRefusalStub(code: string, match: RegExpMatchArray, name: string): boolean {
  // From the name on: an export list or object literal may hold other members before it.
  const at = match[0].search(new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`));
  const start = (match.index ?? 0) + Math.max(at, 0) + name.length;
  const rest = code.slice(start, start + STUB_WINDOW);
  const close = rest.search(/^\s*\}|\};?\s*$/m);
  const body = close < 0 ? rest : rest.slice(0, close + 1);
  return REFUSAL_THROW_RE.test(body);
}

/**
 * A name bound from another module, not defined: `import { generate } from 'selfsigned'`,
 * `const { generate } = await import('selfsigned')`, `const { run } = require('./run')` (the
 * module that defines it says so itself).
 */
function isImportBinding(code: string, match: RegExpMatchArray): boolean {
  const from = (match.index ?? 0) + match[0].length - 1;
  const close = code.indexOf('}', from);
  if (close < 0 || close - from > IMPORT_LIST_WINDOW) return false;
  return IMPORT_SOURCE_RE.test(code.slice(close + 1, close + 80));
}

const IMPORT_LIST_WINDOW = 2000;
const IMPORT_SOURCE_RE = /^\s*(?:from\s*['"]|=\s*(?:await\s+)?(?:require|import)\s*\()/;

const STUB_WINDOW = 300;
const REFUSAL_THROW_RE =
  /\bthrow\b[\s\S]*?\b(?:renamed|removed|replaced|no\s+longer|has\s+moved|moved\s+to|was\s+deprecated|is\s+deprecated)\b/i;

/** Whether the text defines `name` in any form, whatever owns it. */
export function definesMember(text: string, name: string): boolean {
  return memberOwners(text, name).size > 0;
}

interface Forms {
  assignment: RegExp;
  attached: RegExp;
  member: RegExp;
  key: RegExp[];
  exported: RegExp[];
  topLevel: RegExp;
}

const cache = new Map<string, Forms>();

function formsOf(name: string): Forms {
  let forms = cache.get(name);
  if (forms) return forms;
  if (cache.size >= 1000) cache.clear();
  const n = name.replace(/[$]/g, '\\$');
  const word = `(?<![\\w$])${n}(?![\\w$])`;
  forms = {
    // x.name = value; X.prototype.name = function; exports.name = ... (never ==, ===, =>).
    assignment: new RegExp(`(?<![\\w$.])(?:[\\w$]+\\.)*?([\\w$]+)(\\.prototype)?\\.${n}\\s*=(?![=>])`, 'g'),
    // Attached by the library calls for it: Object.assign(x, { name }), Object.defineProperty(x,
    // 'name', ...), Object.defineProperties(x, { name: ... }) (owner `x`).
    attached: new RegExp(
      `Object\\.(?:assign|defineProperties)\\(\\s*([\\w$]+)\\s*,\\s*\\{[^}]*${word}|Object\\.defineProperty\\(\\s*([\\w$]+)\\s*,\\s*['"]${n}['"]`,
      'g',
    ),
    // A method of a class or an object literal (parameters possibly over several lines), or an
    // interface member: `  name(file: string): void;`, `  readonly name?: boolean;`.
    member: new RegExp(
      `^\\s*(?:(?:static|async|public|private|protected|override|readonly|get|set)\\s+)*\\*?\\s*${word}\\s*(?:\\?\\s*)?(?:<[^>()]*>)?\\s*(?:\\([^)]*\\)\\s*(?:\\{|:[^{;]*[{;])|:)`,
      'gm',
    ),
    key: [
      // A key of an object literal or a destructuring pattern, whatever its value: { name: ... };
      // or an inline object type's property, optional or not: `type O = { name?: boolean } & X`.
      new RegExp(`(?:^|[{,(;])\\s*(?:readonly\\s+)?${word}\\s*\\??\\s*:(?!:)`, 'gm'),
      // A shorthand key or destructured name on its own line, with or without a default:
      // `  name,` `  name = false,` (an options object or the parameters that read it).
      new RegExp(`^\\s+${word}\\s*(?:=(?![=>])[^,;\\n]*)?,?\\s*$`, 'gm'),
      new RegExp(`[{,]\\s*${word}\\s*(?:=(?![=>])[^,;}\\n]*)?\\s*[,}]`, 'g'),
    ],
    exported: [
      // export { a, name }, module.exports = { name }, export function name, export const name.
      new RegExp(`export\\s*\\{[^}]*${word}[^}]*\\}`, 'g'),
      new RegExp(`(?:module\\.)?exports\\s*=\\s*\\{[^}]*${word}[^}]*\\}`, 'g'),
      new RegExp(
        `^export\\s+(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?(?:function\\s*\\*?|class|const|let|var|interface|type)\\s+${word}`,
        'gm',
      ),
    ],
    // A top-level (unindented) declaration that is not exported where it stands.
    topLevel: new RegExp(
      `^(?:declare\\s+)?(?:async\\s+)?(?:function\\s*\\*?|class|const|let|var)\\s+${word}`,
      'gm',
    ),
  };
  cache.set(name, forms);
  return forms;
}

const TYPE_HEADER_RE = /\b(?:class|interface|type)\s+([A-Za-z_$][\w$]*)/g;

/** The class, interface or type declared last before `at` (the one a member line most likely belongs to). */
function enclosingType(code: string, at: number | undefined): string | undefined {
  let owner: string | undefined;
  for (const m of code.slice(0, at).matchAll(TYPE_HEADER_RE)) owner = m[1];
  return owner;
}

/** Block comments and whole-line `//` comments (a `//` later on a line may be inside a string or a URL). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/^\s*\/\/.*$/gm, '');
}
