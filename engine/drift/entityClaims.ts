import { argumentKindsAt } from './callArguments';
import type { ExtractedEntity } from '../extract/entities';
import type { ExtractedClaim } from './claimTypes';
import { isDeclarationList, parameterListAt, parametersOf } from './signatures';
import { versionAfter, withLine } from './textClaimMatchers';

type Partial = Omit<ExtractedClaim, 'negated'>;

/** Calls and receivers of the language runtimes: naming them claims nothing about this project. */
const RUNTIME_RECEIVERS = new Set(
  'console JSON Object Math Promise Array String Number Boolean Date RegExp Symbol Map Set Error Reflect Proxy process require module exports window document globalThis Buffer fs path os util crypto http https url assert this self super'.split(
    ' ',
  ),
);
const RUNTIME_CALLS = new Set(
  'require import setTimeout setInterval clearTimeout parseInt parseFloat fetch print len range str int dict list open isNaN encodeURIComponent decodeURIComponent'.split(
    ' ',
  ),
);
/** Environment variables every machine has: the code need not read them. */
const SYSTEM_ENV = new Set(
  'PATH HOME USER SHELL TMPDIR TEMP TMP PWD LANG EDITOR TERM APPDATA USERPROFILE'.split(' '),
);
/** Programs and runtimes the tool dictionary knows that are not dependencies of a project. */
const NOT_DEPENDENCIES = new Set(
  'npm pnpm yarn bun npx node node.js nodejs deno git github docker kubectl make cargo go python python3 pip bash zsh sh vscode vs code'.split(
    ' ',
  ),
);
const DEPENDENCY_CUE_RE =
  /\b(?:depend\w*|package|librar\w+|framework|installed|install|we use|uses|using|built on|powered by)\b/i;
const DECLARATION_BEFORE_RE = /\b(?:function\*?|def|fn|func|fun|sub|method)\s+`?$/;
/** Script runners: `npm run x`, `pnpm x`, `yarn x`, `bun run x`, `make x`. */
const SCRIPT_RE = /^(?:(npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.@/-]+)|make\s+([\w.-]+))/;
const NPM_LIFECYCLE = new Set(['test', 'start', 'stop', 'restart']);
const PACKAGE_MANAGER_VERBS = new Set(
  'install i ci add remove rm uninstall update up outdated audit publish pack link exec dlx init create why list ls view info login logout config cache dedupe prune rebuild version help set-script'.split(
    ' ',
  ),
);
const COMMAND_PATH_RE =
  /(?:^|\s)((?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:js|mjs|cjs|ts|mts|py|sh|rb|go))(?=\s|$)/g;

/** Claims from what the entity extractor found: paths, symbols, commands, packages, env vars. */
export function claimsFromEntities(
  text: string,
  entities: readonly ExtractedEntity[],
  projectPrograms: ReadonlySet<string>,
  negatedAt: (position: number) => boolean,
): Partial[] {
  const out: Partial[] = [];
  for (const entity of entities) {
    for (const span of entity.spans) {
      const surface = text.slice(span[0], span[1]);
      const claim = claimOf(text, entity, [span[0], span[1]], surface, projectPrograms, negatedAt);
      if (claim) out.push(...claim);
    }
  }
  return out;
}

function claimOf(
  text: string,
  entity: ExtractedEntity,
  span: [number, number],
  surface: string,
  projectPrograms: ReadonlySet<string>,
  negatedAt: (position: number) => boolean,
): Partial[] | undefined {
  switch (entity.type) {
    case 'file':
    case 'directory':
      if (surface.startsWith('~')) return [{ kind: 'path', subject: surface, span }];
      return [withLine(text, { kind: 'path', subject: surface.replace(/\\/g, '/'), span })];
    case 'symbol':
      return symbolClaim(text, span, surface);
    case 'env':
      return SYSTEM_ENV.has(entity.name) || !/^[A-Z_][A-Z0-9_]*$/.test(entity.name)
        ? undefined
        : [{ kind: 'env', subject: entity.name, span }];
    case 'command':
      return commandClaims(surface, span, projectPrograms);
    case 'package':
      return packageClaim(text, entity.name, span);
    case 'tool':
      return toolClaim(text, entity.name, span, negatedAt(span[0]));
    default:
      return undefined;
  }
}

function symbolClaim(text: string, span: [number, number], surface: string): Partial[] | undefined {
  const name = surface.replace(/\(\)$/, '');
  const parts = name.split(/\.|::|->|#/);
  const first = parts[0] ?? '';
  if (parts.length > 1 && RUNTIME_RECEIVERS.has(first)) return undefined;
  if (parts.length === 1 && RUNTIME_CALLS.has(first)) return undefined;
  const claim: Partial = { kind: 'symbol', subject: parts.join('.'), span };
  const signature = signatureAfter(text, span);
  const documented = signature ? undefined : headingParameters(text, span);
  if (signature) Object.assign(claim, signature);
  else if (documented !== undefined)
    Object.assign(claim, { parameters: documented, argumentKinds: Array(documented).fill('other') });
  else {
    const parameters = parameterCount(text, span[1]);
    if (parameters !== undefined) claim.parameters = parameters;
    else {
      // `listen(3000, (err) => {})`: a call passing values; its kinds say what it claims is accepted.
      const kinds = argumentKindsAt(text, span[1]);
      if (kinds?.some((kind) => kind !== 'other'))
        Object.assign(claim, { parameters: kinds.length, argumentKinds: kinds });
    }
  }
  return [claim];
}

/**
 * A declaration's parameter list written right after the name: `function parse(input: string,
 * opts)`, `def load(path, *, strict=False)`, or any list with a type annotation. A call with
 * plain arguments (`login(user, password)`) only says how many parameters there are.
 */
function signatureAfter(
  text: string,
  span: [number, number],
): Pick<Partial, 'signature' | 'signatureSpan' | 'parameters'> | undefined {
  if (text[span[1]] !== '(') return undefined;
  const list = parameterListAt(text, span[1]);
  if (!list || list.open !== span[1] || !isDeclarationList(list.inside)) return undefined;
  const parameters = parametersOf(list.inside);
  const declared = DECLARATION_BEFORE_RE.test(text.slice(Math.max(0, span[0] - 24), span[0]));
  if (!declared && !parameters.some((p) => p.type !== undefined)) return undefined;
  return {
    signature: `(${list.inside})`,
    signatureSpan: [list.open, list.close + 1],
    parameters: parameters.length,
  };
}

/** `login(user, password)` -> 2; only for a plain argument list of identifiers. */
/** A Markdown heading's line: API references state a function's parameters in their headings. */
const HEADING_LINE_RE = /^ {0,3}#{1,6}[ \t]/;
/** A parameter in the docs' notation: a name, optionally in brackets (`[options]`, `[, cb]`, `[ctx,]`). */
const DOCUMENTED_PARAMETER_RE = /^\[?\s*,?\s*[A-Za-z_$][\w$]*\s*,?\s*\]?$/;

/**
 * `### glob(pattern, [options], cb)`, `#### createProxyMiddleware([context,] config)`: a heading
 * documents a function taking this many arguments, the bracketed ones optional. Read as a call
 * passing all of them (it claims at least that the full form is accepted), whose typed
 * declarations decide (see callCheck). Undefined unless the span's line is a heading and every
 * parameter is a plain name in that notation.
 */
function headingParameters(text: string, span: [number, number]): number | undefined {
  const lineStart = text.lastIndexOf('\n', span[0] - 1) + 1;
  if (!HEADING_LINE_RE.test(text.slice(lineStart, span[0] + 1)) || text[span[1]] !== '(') return undefined;
  const list = parameterListAt(text, span[1]);
  if (!list || list.open !== span[1]) return undefined;
  // `[context,] config` and `uri [, config]`: split at commas outside and inside the brackets.
  const parts = list.inside
    .replace(/\[\s*,/g, ', [')
    .replace(/,\s*\]/g, '],')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0 || !parts.every((part) => DOCUMENTED_PARAMETER_RE.test(part))) return undefined;
  return parts.length;
}

function parameterCount(text: string, end: number): number | undefined {
  const m = /^\(([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)?\)/.exec(text.slice(end, end + 200));
  if (!m || m[1] === undefined) return undefined;
  return m[1].split(',').length;
}

function commandClaims(
  command: string,
  span: [number, number],
  projectPrograms: ReadonlySet<string>,
): Partial[] {
  const out: Partial[] = [];
  const script = SCRIPT_RE.exec(command);
  if (script) {
    const manager = script[1];
    const name = script[2] ?? script[3];
    const explicitRun = /\srun(?:-script)?\s/.test(command);
    const isScript =
      name !== undefined &&
      (manager === undefined ||
        explicitRun ||
        (manager === 'npm' ? NPM_LIFECYCLE.has(name) : !PACKAGE_MANAGER_VERBS.has(name)));
    if (isScript && name !== undefined) {
      const start = span[0] + command.lastIndexOf(name, script[0].length);
      out.push({ kind: 'script', subject: name, span: [start, start + name.length] });
    }
  }
  const program = command.split(/\s+/)[0] ?? '';
  if (projectPrograms.has(program)) out.push({ kind: 'command', subject: command, span });
  COMMAND_PATH_RE.lastIndex = 0;
  for (let m = COMMAND_PATH_RE.exec(command); m !== null; m = COMMAND_PATH_RE.exec(command)) {
    const path = m[1] as string;
    const start = span[0] + m.index + m[0].indexOf(path);
    out.push({ kind: 'path', subject: path, span: [start, start + path.length] });
  }
  return out;
}

function packageClaim(text: string, name: string, span: [number, number]): Partial[] | undefined {
  if (name.startsWith('node:') || name.startsWith('.') || name.startsWith('/')) return undefined;
  const claim: Partial = { kind: 'dependency', subject: name, span };
  const version = versionAfter(text, span[1]);
  if (version !== undefined) claim.version = version;
  return [claim];
}

/** A tool counts as a dependency claim when the text says the project uses it, or denies it. */
function toolClaim(
  text: string,
  name: string,
  span: [number, number],
  negated: boolean,
): Partial[] | undefined {
  const lower = name.toLowerCase();
  if (NOT_DEPENDENCIES.has(lower)) return undefined;
  const version = versionAfter(text, span[1]);
  const around = text.slice(Math.max(0, span[0] - 40), Math.min(text.length, span[1] + 30));
  // A version alone is no claim about this project: "JSX defaults to the React 16 flavor".
  if (!negated && !DEPENDENCY_CUE_RE.test(around)) return undefined;
  const claim: Partial = { kind: 'dependency', subject: lower.replace(/\s+/g, '-'), span };
  if (version !== undefined) claim.version = version;
  return [claim];
}
