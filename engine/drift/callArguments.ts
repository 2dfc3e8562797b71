import { arityOf, parametersOf, splitTopLevel } from './signatures';

/**
 * What a call in a memory passes, by kind: `fastify.listen(3000, (err) => {})` passes a number and
 * a function. A call is never a declaration: it claims only that some declaration still accepts
 * arguments of these kinds, by count (optional and rest parameters) and, where the declaration is
 * typed, by type.
 */
export type ArgumentKind = 'number' | 'string' | 'boolean' | 'function' | 'object' | 'array' | 'other';

const MAX_CALL_CHARS = 2000;

/** The kinds of the arguments of the call whose `(` is at `open`; undefined when there is none or it never closes. */
export function argumentKindsAt(text: string, open: number): ArgumentKind[] | undefined {
  if (text[open] !== '(') return undefined;
  const args = argumentsAt(text, open);
  if (!args || args.length === 0) return undefined;
  return args.map(kindOf);
}

/**
 * Whether a declared parameter list (`opts?: ListenOptions, cb?: () => void`) accepts arguments of
 * these kinds. `isObjectType` says whether a named type is an interface or class (so no number or
 * string fits it); a name it does not know may be anything.
 */
export function acceptsArguments(
  declared: string,
  kinds: readonly ArgumentKind[],
  isObjectType: (name: string) => boolean,
): boolean {
  const { min, max } = arityOf(declared);
  if (kinds.length < min || kinds.length > max) return false;
  const parameters = parametersOf(declared);
  return kinds.every((kind, i) => {
    const parameter = parameters[i];
    if (!parameter || parameter.type === undefined) return true;
    return typeAccepts(parameter.type, kind, isObjectType);
  });
}

/** Whether a list has a type annotation anywhere: only a typed declaration can refuse a kind. */
export function isTypedList(declared: string): boolean {
  return parametersOf(declared).some((p) => p.type !== undefined);
}

function typeAccepts(type: string, kind: ArgumentKind, isObjectType: (name: string) => boolean): boolean {
  if (kind === 'other') return true;
  return splitUnion(type).some((member) => memberAccepts(member, kind, isObjectType));
}

function memberAccepts(member: string, kind: ArgumentKind, isObjectType: (name: string) => boolean): boolean {
  if (/^(?:any|unknown)$/.test(member)) return true;
  if (member.includes('=>') || /^(?:Function|CallableFunction)$/.test(member)) return kind === 'function';
  if (/\[\]$/.test(member) || /^(?:Readonly)?Array</.test(member) || member.startsWith('['))
    return kind === 'array';
  if (member.startsWith('{') || /^(?:object|Object|Record<|Partial<|Required<|Readonly<)/.test(member))
    return kind === 'object';
  if (/^(?:number|bigint|-?\d[\d_.]*)$/.test(member)) return kind === 'number';
  if (/^(?:string|['"`].*|`.*)$/.test(member)) return kind === 'string';
  if (/^(?:boolean|true|false)$/.test(member)) return kind === 'boolean';
  if (/^(?:null|undefined|void|never)$/.test(member)) return false;
  const name = /^[A-Za-z_$][\w$.]*/.exec(member)?.[0];
  // A named interface or class holds objects (and functions, for a class's callable instances: no).
  if (name !== undefined && isObjectType(name.slice(name.lastIndexOf('.') + 1))) return kind === 'object';
  return true;
}

/** `number | string | (() => void)` -> its members, spaces already removed by parametersOf. */
function splitUnion(type: string): string[] {
  return splitTopLevel(type, '|')
    .filter((member) => member.length > 0)
    .map((member) => member.replace(/^\((.*)\)$/, '$1'));
}

function kindOf(argument: string): ArgumentKind {
  const a = argument.trim();
  if (/^-?\d[\d_]*(?:\.\d+)?$/.test(a)) return 'number';
  if (/^(['"])[\s\S]*\1$/.test(a) || /^`[^`]*`$/.test(a)) return 'string';
  if (/^(?:true|false)$/.test(a)) return 'boolean';
  if (/^(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/.test(a)) return 'function';
  if (a.startsWith('{')) return 'object';
  // `[options]` in `logger.child(bindings, [options])` is the docs' notation for an optional parameter.
  if (/^\[\s*[A-Za-z_$][\w$]*\s*(?:[\],=]|\[)/.test(a)) return 'other';
  if (a.startsWith('[')) return 'array';
  return 'other';
}

/** The top-level arguments of a call, skipping strings, comments and nested brackets. */
function argumentsAt(text: string, open: number): string[] | undefined {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length && i < open + MAX_CALL_CHARS; i++) {
    const c = text[i] as string;
    if (c === '"' || c === "'" || c === '`') {
      const end = text.indexOf(c, i + 1);
      if (end === -1) return undefined;
      i = end;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      if (end === -1) return undefined;
      i = end;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        const last = text.slice(start, i).trim();
        if (last || args.length > 0) args.push(last);
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return undefined;
}
