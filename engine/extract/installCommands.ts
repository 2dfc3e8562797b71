import { createMention } from './mention';
import type { Mention } from './mention';
import { FILE_EXTENSIONS } from './pathVocabulary';
import type { ScanContext } from './scanContext';
import { isCode } from './scanContext';

type Ecosystem = 'npm' | 'pip' | 'cargo' | 'go' | 'gem' | 'composer' | 'brew' | 'dotnet';

/** One capture group per ecosystem, in the order of ECOSYSTEMS. */
const INSTALL_RE =
  /(?<![\w./@-])(?:((?:npm|pnpm|bun|deno)[ \t]+(?:install|i|add)|yarn[ \t]+(?:global[ \t]+)?add)|((?:pip3?|uv[ \t]+pip|python3?[ \t]+-m[ \t]+pip)[ \t]+install|(?:poetry|uv)[ \t]+add)|(cargo[ \t]+(?:add|install))|(go[ \t]+(?:get|install))|(gem[ \t]+install)|(composer[ \t]+require)|(brew[ \t]+install)|(dotnet[ \t]+add[ \t]+package))(?![\w-])/y;
/** First words of INSTALL_RE. */
export const INSTALL_PROGRAMS: ReadonlySet<string> = new Set(
  'npm pnpm bun deno yarn pip pip3 uv python python3 poetry cargo go gem composer brew dotnet'.split(' '),
);
const ECOSYSTEMS: readonly Ecosystem[] = ['npm', 'pip', 'cargo', 'go', 'gem', 'composer', 'brew', 'dotnet'];
const ARG_RE = /[ \t]+(['"]?)([^\s'"`]{1,256})\1/y;

/** The package name at the start of an argument, without version or extras. */
const NAME_RE: Readonly<Record<Ecosystem, RegExp>> = {
  npm: /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@[^\s@]*)?$/i,
  pip: /^([A-Za-z0-9][\w.-]*)(?:\[[\w,.-]*\])?(?:(?:===|==|>=|<=|~=|!=|<|>)\S*)?$/,
  cargo: /^([A-Za-z0-9_-]+)(?:@\S*)?$/,
  go: /^([a-z0-9.-]+\.[a-z]{2,}(?:\/[\w.~-]+)+)(?:@\S*)?$/i,
  gem: /^([A-Za-z0-9][\w.-]*)$/,
  composer: /^([a-z0-9][\w.-]*\/[a-z0-9][\w.-]*)(?::\S*)?$/,
  brew: /^([a-z0-9][\w.@+-]*(?:\/[\w.-]+){0,2})$/,
  dotnet: /^([A-Za-z][\w.]*)$/,
};
/** Flags that take the next argument as their value (`pip install -r requirements.txt`). */
const FLAGS_WITH_VALUE = new Set([
  '-r',
  '--requirement',
  '-c',
  '--constraint',
  '-e',
  '--editable',
  '-i',
  '--index-url',
  '--extra-index-url',
  '-t',
  '--target',
  '--registry',
  '--prefix',
  '--version',
  '-v',
  '--source',
  '--features',
]);
/** Words that end the argument list in prose: "npm install express and then restart". */
const PROSE_STOPS = new Set(
  'and or then to for the a an with in on so but which that if after before first again instead also as it is was when from into because now this globally locally'.split(
    ' ',
  ),
);
const MAX_ARGS = 16;

/**
 * `npm install lodash@4 -D`, `pip install "requests>=2"`, `go get github.com/x/y@v1` starting at
 * `start` (the start of one of INSTALL_PROGRAMS): each package named (as a package entity, without
 * its version) and the whole invocation (as a command entity). Returns the end of the command.
 */
export function matchInstallAt(ctx: ScanContext, start: number, out: Mention[]): number | undefined {
  const { text } = ctx;
  INSTALL_RE.lastIndex = start;
  const m = INSTALL_RE.exec(text);
  if (m === null) return undefined;
  const group = m.slice(1).findIndex((g) => g !== undefined);
  const ecosystem = ECOSYSTEMS[group];
  if (ecosystem === undefined) return undefined;
  const commandEnd = readArguments(text, start + m[0].length, ecosystem, out);
  if (commandEnd === undefined && ecosystem === 'go' && !isCode(ctx, start)) return undefined;
  const end = commandEnd ?? start + m[0].length;
  out.push(createMention(start, end, 'command', text.slice(start, end).replace(/\s+/g, ' ')));
  return end;
}

/** Emits a package mention per argument; returns the end of the last argument read. */
function readArguments(text: string, from: number, ecosystem: Ecosystem, out: Mention[]): number | undefined {
  let pos = from;
  let lastEnd: number | undefined;
  let skipValue = false;
  for (let i = 0; i < MAX_ARGS; i++) {
    ARG_RE.lastIndex = pos;
    const m = ARG_RE.exec(text);
    if (m === null) break;
    const quote = m[1] as string;
    const raw = m[2] as string;
    const start = pos + m[0].length - quote.length - raw.length;
    const arg = stripTrailingPunctuation(raw);
    const endsSentence = arg.length < raw.length && /[.,;!?)]/.test(raw.slice(arg.length));
    pos = pos + m[0].length;
    if (skipValue) {
      skipValue = false;
      lastEnd = start + arg.length;
    } else if (arg.startsWith('-')) {
      skipValue = FLAGS_WITH_VALUE.has(arg) && !arg.includes('=');
      lastEnd = start + arg.length;
    } else {
      if (PROSE_STOPS.has(arg.toLowerCase())) break;
      const name = NAME_RE[ecosystem].exec(arg)?.[1];
      if (name === undefined || looksLikeFile(name)) break;
      out.push(createMention(start, start + name.length, 'package', name));
      lastEnd = start + arg.length;
    }
    if (endsSentence) break;
  }
  return lastEnd;
}

function stripTrailingPunctuation(arg: string): string {
  let end = arg.length;
  while (end > 0 && '.,;:!?)'.includes(arg[end - 1] as string)) end--;
  return arg.slice(0, end);
}

function looksLikeFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && FILE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase()) && !name.includes('/');
}
