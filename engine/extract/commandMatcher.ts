import { CLI_NAMES } from './cliNames';
import { createMention } from './mention';
import type { Mention } from './mention';
import type { ScanContext } from './scanContext';
import { forEachMatch } from './regexScan';
import { trimEndChars } from './textTrim';

/**
 * Commands named in prose without backticks. Only programs whose names are not English words,
 * each with the sub-commands people actually write, so "make sure" and "go get coffee" stay prose.
 * Tried only where the word matcher meets one of PROSE_PROGRAMS, never across the whole text.
 */
const PROSE_COMMAND_RE = new RegExp(
  String.raw`(?<![\w./@-])(?:` +
    [
      String.raw`(?:npm|pnpm|yarn|bun)[ \t]+run[ \t]+[\w:.@/-]{1,100}`,
      String.raw`(?:npm|pnpm|yarn|bun)[ \t]+(?:test|start|build|ci|lint|dev|audit|outdated|publish|pack|dedupe|prune|rebuild)`,
      String.raw`(?:npx|pnpx|bunx)[ \t]+[\w@][\w@./:-]{0,100}`,
      String.raw`pnpm[ \t]+(?:dlx|exec)[ \t]+[\w@][\w@./:-]{0,100}`,
      String.raw`git[ \t]+(?:status|commit|push|pull|fetch|rebase|merge|checkout|switch|log|diff|stash|clone|reset|revert|cherry-pick|bisect|blame|tag|branch|init|restore|show|worktree|submodule|add|rm|mv|clean|gc|reflog)`,
      String.raw`docker(?:-compose|[ \t]+compose)?[ \t]+(?:build|run|up|down|ps|pull|push|exec|logs|images|start|stop|restart|rm|rmi|prune)`,
      String.raw`cargo[ \t]+(?:build|test|run|check|clippy|fmt|bench|doc|publish|update|tree)`,
      String.raw`kubectl[ \t]+(?:apply|get|describe|logs|delete|exec|rollout|port-forward|create|edit|scale|config)`,
      String.raw`terraform[ \t]+(?:init|plan|apply|destroy|validate|fmt|import|state)`,
      String.raw`go[ \t]+mod[ \t]+tidy`,
      String.raw`go[ \t]+(?:build|test|vet|run|generate)[ \t]+(?:\.\/[\w./-]*|-[\w.-]+)`,
      String.raw`(?:python3?|node|deno|tsx|ts-node)[ \t]+[\w./-]{1,200}\.(?:py|js|mjs|cjs|ts|mts)`,
      String.raw`python3?[ \t]+-m[ \t]+[\w.]{1,100}`,
    ].join('|') +
    // `pnpm test:integration` is not `pnpm test`; "run `npm test`: it ..." still is.
    String.raw`)(?![\w-]|:\w)`,
  'y',
);
/** First words of PROSE_COMMAND_RE. */
export const PROSE_PROGRAMS: ReadonlySet<string> = new Set(
  'npm pnpm yarn bun npx pnpx bunx git docker docker-compose cargo kubectl terraform go python python3 node deno tsx ts-node'.split(
    ' ',
  ),
);
const PROMPT_RE = /^[ \t]*\$[ \t]+(\S[^\n]{0,300})$/gm;
const ENV_ASSIGNMENT_RE = /^[A-Z_][A-Z0-9_]*=/;
const SCRIPT_PATH_RE = /^\.{1,2}\/[\w./-]+$/;
const MAX_COMMAND_LENGTH = 200;

export function matchCommands(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  for (const [start, end] of ctx.inlineCode) addCodeCommand(text, start, end, out);
  for (const [start, end] of ctx.shellLines) addCodeCommand(text, start, end, out);
  if (text.includes('$')) {
    forEachMatch(PROMPT_RE, text, (m) => {
      const line = m[1] as string;
      const start = m.index + m[0].length - line.length;
      addCodeCommand(text, start, start + line.length, out);
    });
  }
}

/** A prose command starting at `start` (the start of one of PROSE_PROGRAMS); returns its end. */
export function matchProseCommandAt(text: string, start: number, out: Mention[]): number | undefined {
  PROSE_COMMAND_RE.lastIndex = start;
  const m = PROSE_COMMAND_RE.exec(text);
  if (m === null) return undefined;
  const command = trimEndChars(m[0], '.:/,');
  out.push(createMention(start, start + command.length, 'command', command.replace(/\s+/g, ' ')));
  return start + command.length;
}

/**
 * A stretch of code is a command when its first word (after `$ `, `sudo` and `VAR=value`
 * prefixes) is a known program and at least one argument follows: `make lint`, not `make`.
 */
function addCodeCommand(text: string, from: number, to: number, out: Mention[]): void {
  if (to - from > MAX_COMMAND_LENGTH * 2) return;
  let line = text.slice(from, to);
  const comment = line.indexOf(' #');
  if (comment !== -1) line = line.slice(0, comment);
  const trimmed = line.trim();
  let offset = from + line.indexOf(trimmed);
  let command = trimmed;
  if (command.startsWith('$ ')) {
    const rest = command.slice(2).trimStart();
    offset += command.length - rest.length;
    command = rest;
  }
  if (command.length < 3 || command.length > MAX_COMMAND_LENGTH) return;
  // `FILTER="includes paths" pnpm test`: a quoted value is one word.
  const words = command.match(/(?:"[^"]*"|'[^']*'|\S)+/g) ?? [];
  let i = 0;
  while (i < words.length && ENV_ASSIGNMENT_RE.test(words[i] as string)) i++;
  if (words[i] === 'sudo') i++;
  const program = words[i];
  if (program === undefined || words.length - i < 2) return;
  if (!CLI_NAMES.has(program) && !SCRIPT_PATH_RE.test(program)) return;
  out.push(createMention(offset, offset + command.length, 'command', words.join(' ')));
}
