import type { Command } from 'commander';
import type { MethodParams, MethodResult } from '../api/methods';
import { agentStores } from '../capture/workspaceSources';
import { parseNumber } from './cliArguments';
import type { Invoke } from './cliArguments';
import { invalidInput } from '../errors';
import { captureLineForHook, hookClientOption } from './hookOutput';
import { observationLines, observeSessions, registerObservationCommands } from './observationCommands';
import type { ObservationRunReport } from '../capture/observations/observeWithModel';

/** A capture run's result with what the language model gave after it (observationCommands.ts). */
type Observed<T> = T & { observations: ObservationRunReport };
import type { HookClient } from './hookOutput';

export interface CaptureCliHost {
  env: NodeJS.ProcessEnv;
  home: string;
  now: () => number;
}

const RELATIVE = /^(\d+)([mhdw])$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `7d`, `24h`, `30m`, `2w` before now, as epoch ms; anything else goes to the method as typed. */
export function sinceValue(value: string | undefined, now: number): string | number | undefined {
  const m = value === undefined ? null : RELATIVE.exec(value.trim());
  return m ? now - Number(m[1]) * (UNIT_MS[m[2] as string] as number) : value;
}

/**
 * `engram capture enable | disable | status | run [--agent A,B] [--since T] | watch [--agent A,B]
 * [--interval S] [--runs N] | purge (--session ID | --before T)`.
 * `--agent` is also the global "who is acting" option: after `capture run` it names the agents to read.
 */
export function registerCaptureCommands(program: Command, invoke: Invoke, host: CaptureCliHost): void {
  // `--agent` is also the global option (who is acting), which the program parses first, one value
  // only: after a capture command it names the agents, several separated by commas.
  const agentsOf = (own: string | undefined) => {
    const value = own ?? program.opts<{ agent?: string }>().agent;
    return value
      ?.split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
  };
  const capture = program
    .command('capture')
    .description(
      "read the coding agents' own session logs of this workspace into its memory (off until enabled)",
    );

  capture
    .command('enable')
    .description(
      'turn capture on for this workspace (Claude Code, Codex CLI, Gemini CLI and Aider sessions run in it)',
    )
    .action(() => invoke('captureEnable', {}, (r) => statusLines(r as MethodResult<'captureStatus'>)));
  capture
    .command('disable')
    .description('turn capture off for this workspace (what was captured stays until purged)')
    .action(() => invoke('captureDisable', {}, (r) => statusLines(r as MethodResult<'captureStatus'>)));
  capture
    .command('status')
    .description('whether capture is on, and what it has read')
    .action(() => invoke('captureStatus', {}, (r) => statusLines(r as MethodResult<'captureStatus'>)));

  capture
    .command('run')
    .option(
      '--agent <a,b>',
      'only these agents: claude-code, codex, aider, gemini, copilot, cline, roo-code, opencode (comma-separated)',
    )
    .option('--since <time>', 'only sessions written since: ISO 8601, epoch ms, or 30m / 24h / 7d / 2w')
    .option(
      '--from-hook',
      "run by an agent's hook: print nothing unless something was read, and nothing while capture is off",
    )
    .addOption(hookClientOption())
    .description('read what the agents wrote since the last run (incremental, idempotent)')
    .action((o: { agent?: string; since?: string; fromHook?: boolean; hookClient?: HookClient }) => {
      const agent = agentsOf(o.agent);
      const stores = agentStores(host.env, host.home);
      const fromHook = o.fromHook === true;
      const params = { ...stores, agent, since: sinceValue(o.since, host.now()), ifEnabled: fromHook };
      // A hook waits for its command: only the rules there; a run by hand asks the model too, if opted in.
      if (fromHook)
        return invoke('captureRun', params, (r) =>
          captureLineForHook(watchLine(r as MethodResult<'captureRun'>, host.now()), o.hookClient),
        );
      return invoke(
        'captureRun',
        params,
        (r) => {
          const run = r as Observed<MethodResult<'captureRun'>>;
          return [runLines(run), ...observationLines(run.observations)].join('\n');
        },
        undefined,
        async (call) => ({
          ...(await call('captureRun', params as MethodParams<'captureRun'>)),
          observations: await observeSessions(call, host.env),
        }),
      );
    });

  capture
    .command('watch')
    .option(
      '--agent <a,b>',
      'only these agents: claude-code, codex, aider, gemini, copilot, cline, roo-code, opencode (comma-separated)',
    )
    .option('--interval <seconds>', 'seconds between two reads (1 to 3600)', parseNumber, 10)
    .option('--runs <n>', 'stop after this many reads (default: until interrupted)', parseNumber)
    .description(
      'read what the agents write as they write it, until interrupted (safe at any moment: the next read resumes there)',
    )
    .action(async (o: { agent?: string; interval: number; runs?: number }) => {
      if (!(o.interval >= 1 && o.interval <= 3600))
        throw invalidInput(`--interval must be 1 to 3600 seconds; got ${o.interval}`);
      if (o.runs !== undefined && !(Number.isInteger(o.runs) && o.runs >= 1)) {
        throw invalidInput(`--runs must be a whole number of at least 1; got ${o.runs}`);
      }
      const stores = agentStores(host.env, host.home);
      for (let run = 1; o.runs === undefined || run <= o.runs; run++) {
        if (run > 1) await new Promise((resolve) => setTimeout(resolve, o.interval * 1000));
        const params = { ...stores, agent: agentsOf(o.agent) };
        await invoke(
          'captureRun',
          params,
          (r) => {
            const run = r as Observed<MethodResult<'captureRun'>>;
            return [watchLine(run, host.now()), ...observationLines(run.observations)]
              .filter(Boolean)
              .join('\n');
          },
          undefined,
          async (call) => ({
            ...(await call('captureRun', params as MethodParams<'captureRun'>)),
            observations: await observeSessions(call, host.env),
          }),
        );
      }
    });

  for (const [name, remove] of [
    ['exclude', false],
    ['include', true],
  ] as const) {
    capture
      .command(name)
      .option(
        '--agent <a,b>',
        'agents: claude-code, codex, aider, gemini, copilot, cline, roo-code, opencode (comma-separated)',
      )
      .option('--path <patterns...>', 'workspace paths as .gitignore patterns (e.g. secrets/ or *.pem)')
      .description(
        remove
          ? 'take agents or path patterns off the exclude list'
          : 'never read these agents; keep no record that touches these paths (only its place)',
      )
      .action((o: { agent?: string; path?: string[] }) =>
        invoke('captureExclude', { agent: agentsOf(o.agent), path: o.path, remove }, (r) =>
          statusLines(r as MethodResult<'captureStatus'>),
        ),
      );
  }

  registerObservationCommands(capture, invoke, host.env);

  capture
    .command('sessions')
    .option(
      '--agent <agent>',
      'only this agent: claude-code, codex, aider, gemini, copilot, cline, roo-code, opencode',
    )
    .option('--limit <n>', 'at most this many (1 to 1000)', parseNumber)
    .description('the captured sessions, the most recent first (their ids are what purge --session takes)')
    .action((o: { agent?: string; limit?: number }) =>
      invoke('captureSessions', { agent: agentsOf(o.agent)?.[0], limit: o.limit }, (r) =>
        sessionLines(r as MethodResult<'captureSessions'>),
      ),
    );

  capture
    .command('rebuild')
    .description('derive the sessions again from the stored records alone (after an Engram update)')
    .action(() =>
      invoke('captureRebuild', {}, (r) => {
        const b = r as MethodResult<'captureRebuild'>;
        return [
          `rebuilt ${plural(b.sessions, 'session')} from ${plural(b.records, 'record')} of ${plural(b.files, 'file')}, ${plural(b.summaries, 'summary memory', 'summary memories')} written`,
          ...unreadLinksNote(b.linksUnread),
        ].join('\n');
      }),
    );

  capture
    .command('purge')
    .option('--session <id>', 'one captured session (its id or a unique prefix)')
    .option(
      '--before <time>',
      'every session that ended before this time (ISO 8601 or 30m / 24h / 7d / 2w ago)',
    )
    .description('delete captured sessions and everything derived from them, for real')
    .action((o: { session?: string; before?: string }) => {
      // `--session` is also the global option (the acting session): after `purge` it names the one to purge.
      const session = o.session ?? program.opts<{ session?: string }>().session;
      if ((session === undefined) === (o.before === undefined)) {
        throw invalidInput('give --session ID or --before TIME (one of them)');
      }
      return invoke('capturePurge', { session, before: sinceValue(o.before, host.now()) }, (r) =>
        purgeLine(r as MethodResult<'capturePurge'>),
      );
    });
}

function statusLines(s: MethodResult<'captureStatus'>): string {
  const since = s.changedAt === null ? '' : ` since ${new Date(s.changedAt).toISOString()}`;
  const lines = [
    `capture is ${s.enabled ? 'on' : 'off'}${s.root ? ` for ${s.root}` : ''}${since}`,
    `${s.sources} files read, ${s.records} records in the ledger`,
    s.observations === 'model'
      ? 'observations: rules and a language model (engram capture observations rules turns the model off)'
      : 'observations: rules only (engram capture observations model lets a language model write them too)',
  ];
  for (const a of s.sessions) {
    const last = a.lastAt === null ? '' : `, last ${new Date(a.lastAt).toISOString()}`;
    lines.push(`  ${a.agent}: ${plural(a.sessions, 'session')}, ${plural(a.turns, 'turn')}${last}`);
  }
  const { agents, paths } = s.excludes;
  if (agents.length > 0 || paths.length > 0) {
    lines.push(
      `excluded: ${[...agents.map((a) => `agent ${a}`), ...paths.map((p) => `path ${p}`)].join(', ')}`,
    );
  }
  if (!s.enabled) lines.push('engram capture enable turns it on; nothing is read while it is off');
  return lines.join('\n');
}

function runLines(r: MethodResult<'captureRun'>): string {
  const total = (k: 'records' | 'understood' | 'unknown' | 'malformed' | 'excluded' | 'skipped' | 'bytes') =>
    r.sources.reduce((n, s) => n + s[k], 0);
  const sessions = new Set(r.sources.flatMap((s) => s.sessions));
  const lines = [
    `read ${plural(r.sources.length, 'session source')} of ${r.root}: ${total('bytes')} bytes, ${total('records')} records ` +
      `(${total('understood')} understood, ${total('unknown')} unknown, ${total('malformed')} malformed, ` +
      `${total('excluded')} excluded, ` +
      `${total('skipped')} already stored or purged), ${plural(sessions.size, 'session')} updated, ` +
      `${plural(r.summaries, 'summary memory', 'summary memories')} written${conventionsNote(r.conventions)}${lessonsNote(r.lessons)}`,
    ...unreadLinksNote(r.linksUnread),
  ];
  for (const s of r.sources) {
    if (s.records === 0) continue;
    lines.push(`  ${s.agent.padEnd(11)} ${s.records} records  ${s.path}`);
  }
  return lines.join('\n');
}

function sessionLines(sessions: MethodResult<'captureSessions'>): string {
  if (sessions.length === 0) return 'no captured session';
  return sessions
    .map((s) => {
      const when =
        s.startedAt === null ? 'undated' : new Date(s.startedAt).toISOString().slice(0, 16).replace('T', ' ');
      const counts = [
        plural(s.turns, 'turn'),
        plural(s.toolCalls, 'tool call'),
        plural(s.filesChanged, 'file changed', 'files changed'),
        ...(s.failedCommands > 0 ? [plural(s.failedCommands, 'failed command')] : []),
      ].join(', ');
      const title = s.title === null ? '' : `  "${s.title.replace(/\s+/g, ' ').slice(0, 80)}"`;
      return `${s.id}  ${s.agent}  ${when}  ${counts}${title}`;
    })
    .join('\n');
}

/** One line per round that found something; nothing otherwise. */
function watchLine(r: MethodResult<'captureRun'>, now: number): string {
  const records = r.sources.reduce((n, s) => n + s.records, 0);
  if (records === 0) return '';
  const sessions = new Set(r.sources.flatMap((s) => s.sessions)).size;
  return `${new Date(now).toISOString()} +${plural(records, 'record')} in ${plural(sessions, 'session')}, ${plural(r.summaries, 'summary memory', 'summary memories')} written${conventionsNote(r.conventions)}${lessonsNote(r.lessons)}`;
}

function purgeLine(r: MethodResult<'capturePurge'>): string {
  if (r.sessions.length === 0) return 'purged nothing: no captured session matched';
  return (
    `purged ${plural(r.sessions.length, 'session')} (${r.sessions.join(', ')}): ` +
    [
      plural(r.records, 'record'),
      plural(r.turns, 'turn'),
      plural(r.toolCalls, 'tool call'),
      plural(r.fileTouches, 'file touch'),
      plural(r.commands, 'command'),
      plural(r.memories, 'memory', 'memories'),
    ].join(', ')
  );
}

/** A git failure keeps a session's old links: said, or a wrong or stale link would go unnoticed. */
const unreadLinksNote = (n: number) =>
  n > 0
    ? [`git could not read the commits of ${plural(n, 'session')}: their commit links are kept as they were`]
    : [];

/** Stated conventions are rare: said only when there were some. */
const conventionsNote = (n: number) => (n > 0 ? `, ${plural(n, 'stated convention')} remembered` : '');
const lessonsNote = (n: number) =>
  n > 0 ? `, ${plural(n, 'lesson')} remembered (corrections, commands that worked, absences)` : '';

const plural = (n: number, word: string, words = word.endsWith('h') ? `${word}es` : `${word}s`) =>
  `${n} ${n === 1 ? word : words}`;
