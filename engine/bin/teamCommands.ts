import type { Command } from 'commander';
import type { MethodResult } from '../api/methods';
import type { TeamStatus } from '../team/teamStatus';
import type { TeamWrite } from '../team/teamShare';
import { sinceValue } from './captureCommands';
import type { Invoke } from './cliArguments';

/**
 * `engram team share ID [--dry-run] | propose ID | status [--since T] | sync`: team memories
 * shared as files under `.engram/team/`, committed and reviewed like code (docs/team.md).
 * Returns the `team` command, for the team server's subcommands (teamServerCommands.ts).
 */
export function registerTeamCommands(program: Command, invoke: Invoke, now: () => number): Command {
  const team = program
    .command('team')
    .description('share memories with the team as files under .engram/team/, committed with git');
  team
    .command('share <id>')
    .option('--dry-run', 'print the file that would be written, write nothing')
    .description('write the memory as .engram/team/<id>.md (a new version if it is shared already)')
    .action((id: string, o: { dryRun?: boolean }) =>
      invoke('teamShare', { id, dryRun: o.dryRun === true }, (r) => shareLines(r as TeamWrite)),
    );
  team
    .command('propose <id>')
    .description('tag the memory team-proposed: team status lists it until it is shared')
    .action((id: string) =>
      invoke('teamPropose', { id }, (r) => `proposed ${(r as MethodResult<'teamPropose'>).id} for sharing`),
    );
  team
    .command('status')
    .option('--since <time>', 'list changes the files brought since then (ISO time or 7d, 24h)', '7d')
    .description('memories proposed for sharing, team files changed upstream, conflicts, stale team memories')
    .action((o: { since?: string }) =>
      invoke('teamStatus', { since: sinceValue(o.since, now()) }, (r) => statusLines(r as TeamStatus)),
    );
  team
    .command('sync')
    .description('index the team files that changed (every command also does on open)')
    .action(() =>
      invoke('teamSync', {}, (r) => {
        const s = r as MethodResult<'teamSync'>;
        const lines = [
          `indexed team files: ${s.added.length} added, ${s.edited.length} changed, ${s.retired.length} retired, ${s.conflicts.length} in conflict, ${s.resolved.length} resolved, ${s.unchanged} unchanged`,
        ];
        for (const e of s.errors) lines.push(`  not indexed: ${e.message}`);
        return lines.join('\n');
      }),
    );
  return team;
}

function shareLines(w: TeamWrite): string {
  const head =
    w.outcome === 'preview'
      ? `would write ${w.file} (version ${w.version}):`
      : w.outcome === 'unchanged'
        ? `${w.file} already says this (version ${w.version})`
        : `wrote ${w.file} (version ${w.version}): commit it to share it`;
  return w.outcome === 'preview' ? `${head}\n${w.text}` : head;
}

const excerpt = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}…` : text);

function statusLines(s: TeamStatus): string {
  const lines: string[] = [];
  const section = (title: string, rows: string[], none: string) => {
    lines.push(`${title}:`, ...(rows.length > 0 ? rows.map((r) => `  ${r}`) : [`  ${none}`]));
  };
  section(
    'proposed for sharing (engram team share ID)',
    s.proposed.map((p) => `${p.memoryId}  ${excerpt(p.excerpt)}`),
    'none (engram team propose ID proposes one)',
  );
  section(
    'changed upstream',
    [
      ...s.pending.map((p) => `${p.change.padEnd(8)} ${p.file} (not indexed yet: engram team sync)`),
      ...s.changedUpstream.map(
        (c) => `${c.change.padEnd(8)} ${c.teamId} ${new Date(c.at).toISOString()}  ${excerpt(c.excerpt)}`,
      ),
    ],
    'none',
  );
  section(
    'in conflict (both sides are indexed until the file is resolved)',
    s.conflicts.map((c) => `${c.file}  ours ${c.ours}, theirs ${c.theirs}`),
    'none',
  );
  section(
    'stale (drift)',
    s.stale.map((t) => `${t.drift.padEnd(8)} ${t.teamId}  ${excerpt(t.excerpt)}`),
    'none found by the last drift check',
  );
  return lines.join('\n');
}
