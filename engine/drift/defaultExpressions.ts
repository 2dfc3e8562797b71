import { parameterListAt, splitTopLevel } from './signatures';

/**
 * Defaults the code declares one step removed from the option: through a same-file constant
 * (`const DEFAULT_MAX_AGE = 180 * 24 * 60 * 60`), as plain arithmetic of number literals, or by
 * passing the option to a function whose parameter has the default
 * (`parseMaxAge(options.maxAge)` with `function parseMaxAge(value: number = 0)`). Each is read
 * exactly or not at all: anything else stays an expression, compared with nothing.
 */

const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/;
const NOT_CONSTANTS = new Set(['true', 'false', 'null', 'undefined', 'NaN', 'Infinity']);
const NOT_CALLEES = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'typeof',
  'require',
]);

export interface ResolvedDefault {
  /** The value: as written, or the number an expression or constant comes to. */
  value: string;
  /** True when it came through a constant or arithmetic: a repair would not know how to write it. */
  derived: boolean;
}

/** `written` as a value: a same-file constant followed (twice at most), arithmetic evaluated. */
export function resolveDefault(source: string, written: string): ResolvedDefault {
  let text = written.trim();
  let derived = false;
  for (let hop = 0; hop < 2 && IDENTIFIER_RE.test(text) && !NOT_CONSTANTS.has(text); hop++) {
    const constant = constantValue(source, text);
    if (constant === undefined) break;
    text = constant;
    derived = true;
  }
  if (/[-+*/()]/.test(text.replace(/^-/, '')) && !/['"`]/.test(text)) {
    const number = evaluateArithmetic(text);
    if (number !== undefined) return { value: String(number), derived: true };
  }
  return { value: text, derived };
}

/** The initializer of the one `const NAME = ...;` a file declares; undefined if none or several. */
function constantValue(source: string, name: string): string | undefined {
  const re = new RegExp(
    String.raw`(?:^|[;{\n])\s*(?:export\s+)?const\s+${name.replace(/\$/g, '\\$')}\s*(?::\s*[^=;\n]+)?=\s*([^;\n]+?)\s*;?[ \t]*(?=\n|$)`,
    'g',
  );
  const found = new Set<string>();
  for (let m = re.exec(source); m !== null; m = re.exec(source)) found.add((m[1] as string).trim());
  return found.size === 1 ? [...found][0] : undefined;
}

/** `+ - * /` and parentheses over number literals (`1_000`, `30e3`); undefined for anything else. */
export function evaluateArithmetic(text: string): number | undefined {
  const tokens = text.match(/\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?|[-+*/()]|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  type Operators = Record<string, (left: number, right: number) => number>;
  // One precedence level: operands from the next level, joined left to right by its operators.
  const level = (operand: () => number | undefined, operators: Operators) => (): number | undefined => {
    let left = operand();
    while (left !== undefined && operators[peek() ?? ''] !== undefined) {
      const apply = operators[tokens[at++] as string] as Operators[string];
      const right = operand();
      if (right === undefined) return undefined;
      left = apply(left, right);
    }
    return left;
  };
  const product = level(() => unary(), { '*': (a, b) => a * b, '/': (a, b) => a / b });
  const sum = level(product, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const unary = (): number | undefined => {
    const token = tokens[at++];
    if (token === '-') {
      const value = unary();
      return value === undefined ? undefined : -value;
    }
    if (token === '(') {
      const value = sum();
      return tokens[at++] === ')' ? value : undefined;
    }
    return token !== undefined && /^\d/.test(token) ? Number(token.replace(/_/g, '')) : undefined;
  };
  const value = sum();
  return value !== undefined && at === tokens.length && Number.isFinite(value) ? value : undefined;
}

/**
 * Defaults of `name` passed on whole to a function of the same file: in `parseMaxAge(options.maxAge)`
 * the option's default is `parseMaxAge`'s parameter default at that position, as written.
 */
export function passedOnDefaults(source: string, name: string): string[] {
  const values: string[] = [];
  const argument = new RegExp(String.raw`^(?:[\w$]+\.)?${name.replace(/\$/g, '\\$')}$`);
  const call = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(([^()\n]*)\)/g;
  for (let m = call.exec(source); m !== null; m = call.exec(source)) {
    const callee = m[1] as string;
    if (NOT_CALLEES.has(callee)) continue;
    const position = splitTopLevel(m[2] as string).findIndex((part) => argument.test(part.trim()));
    if (position < 0) continue;
    for (const parameters of declaredParameters(source, callee)) {
      const parameter = splitTopLevel(parameters)[position];
      const declared = parameter?.match(/^\s*[A-Za-z_$][\w$]*\s*\??\s*(?::[^=]+?)?=(?!=)\s*([\s\S]+?)\s*$/);
      if (declared) values.push(declared[1] as string);
    }
  }
  return values;
}

/** The parameter lists `function f(...)`, `const f = (...) =>` and `f(...) {` declare in a file. */
function declaredParameters(source: string, callee: string): string[] {
  const name = callee.replace(/\$/g, '\\$');
  const opening = new RegExp(
    String.raw`(?:\bfunction\s*\*?\s*${name}\s*|\b${name}\s*=\s*(?:async\s+)?(?:function\b\s*)?|^[ \t]*(?:async\s+)?${name}\s*)\(`,
    'gm',
  );
  const lists: string[] = [];
  for (let m = opening.exec(source); m !== null; m = opening.exec(source)) {
    const list = parameterListAt(source, m.index + m[0].length - 1);
    if (list === undefined) continue;
    const after = source.slice(list.close + 1, list.close + 80);
    // A declaration goes on to a body (`{`, `=>`, or a return type first); a call does not.
    if (/^\s*(?::[^{=;]+)?(?:\{|=>)/.test(after)) lists.push(list.inside);
  }
  return lists;
}
