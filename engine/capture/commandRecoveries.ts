/** A command a session ran, as capture recorded it. */
export interface RanCommand {
  command: string;
  /** Its exit status, when known. */
  exitCode: number | null;
  /** Its tool call's status, when known (`error` also without an exit status). */
  status: 'ok' | 'error' | null;
}

export interface Recovery {
  failed: string;
  exitCode: number | null;
  worked: string;
}

/** Programs for which a non-zero exit is an answer, not a failure (grep found nothing). */
const ANSWERS = new Set([
  'grep',
  'rg',
  'egrep',
  'fgrep',
  'ag',
  'diff',
  'cmp',
  'test',
  '[',
  'which',
  'type',
  'command',
  'ls',
  'cat',
  'find',
  'cd',
  'pwd',
  'echo',
  'true',
  'false',
  'stat',
  'file',
  'head',
  'tail',
  'wc',
]);
/** Programs whose first argument says what is run (`npm test`, `git push`, `bash deploy.sh`). */
const RUNNERS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'bun',
  'deno',
  'node',
  'git',
  'cargo',
  'go',
  'python',
  'python3',
  'pip',
  'uv',
  'poetry',
  'make',
  'docker',
  'kubectl',
  'bash',
  'sh',
  'zsh',
  'dotnet',
  'mvn',
  'gradle',
  './gradlew',
  'bundle',
  'rake',
  'terraform',
  'helm',
]);
/** How far after a failure the command that worked may come. */
const WITHIN = 6;
const MAX_COMMAND = 200;

/** What a command runs: its program, and for a runner its first argument; variables and sudo skipped. */
export function commandTarget(command: string): string | undefined {
  const words = command
    .trim()
    .replace(/^(?:(?:sudo|env|time|nohup)\s+|[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '')
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const program = words[0];
  if (program === undefined || /[|;&<>]/.test(program)) return undefined;
  if (!RUNNERS.has(program)) return program;
  const argument = words.slice(1).find((w) => !w.startsWith('-'));
  return argument === undefined ? undefined : `${program} ${argument}`;
}

const failed = (c: RanCommand) => (c.exitCode !== null ? c.exitCode !== 0 : c.status === 'error');
const worked = (c: RanCommand) => (c.exitCode !== null ? c.exitCode === 0 : c.status === 'ok');

/**
 * A failing command followed, within a few commands, by a different command of the same target
 * that worked: the way that works (`npm test` failed, `TZ=UTC npm test` passed). Not when the same
 * command later passed unchanged (then the code was fixed, not the command), not for programs that
 * exit non-zero to answer (grep), not for pipelines or commands too long to read as a procedure.
 */
export function commandRecoveries(commands: readonly RanCommand[]): Recovery[] {
  const found: Recovery[] = [];
  const seen = new Set<string>();
  commands.forEach((c, i) => {
    if (!failed(c) || c.command.length > MAX_COMMAND || /[|;]|&&/.test(c.command)) return;
    const target = commandTarget(c.command);
    if (target === undefined || ANSWERS.has(target.split(' ')[0] as string)) return;
    const next = commands
      .slice(i + 1, i + 1 + WITHIN)
      .find(
        (d) => commandTarget(d.command) === target && (worked(d) || d.command.trim() === c.command.trim()),
      );
    if (next === undefined || !worked(next) || next.command.trim() === c.command.trim()) return;
    if (next.command.length > MAX_COMMAND || /[|;]|&&/.test(next.command)) return;
    const key = `${c.command}\0${next.command}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ failed: c.command.trim(), exitCode: c.exitCode, worked: next.command.trim() });
  });
  return found;
}

export function recoveryText(r: Recovery): string {
  const status = r.exitCode === null ? 'failed' : `failed (exit ${r.exitCode})`;
  return `\`${r.failed}\` ${status}; \`${r.worked}\` worked.`;
}
