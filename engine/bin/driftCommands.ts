import type { Command } from 'commander';
import type { Invoke } from './cliArguments';
import type { DriftReport, MemoryDrift } from '../drift/driftReport';

/** `engram drift [--fix] [--dry-run] [--all] [--paths P...]`; `--json` is the global option. */
export function registerDriftCommands(program: Command, invoke: Invoke): void {
  program
    .command('drift')
    .option(
      '--fix',
      'repair: rewrite moved paths, symbols and routes, changed signatures and config values; invalidate dead memories, flag the rest',
    )
    .option('--dry-run', 'with --fix: say what would be repaired, change nothing')
    .option('--all', 'list every checked memory, not only the drifted ones')
    .option('--paths <paths...>', 're-check only the memories whose claims name these paths')
    .option(
      '--id <ids...>',
      'with --fix: repair only these memories, yours included (otherwise only proposed)',
    )
    .description('check every memory claim against the workspace and its git history')
    .action((o: { fix?: boolean; dryRun?: boolean; all?: boolean; paths?: string[]; id?: string[] }) =>
      invoke(
        'drift',
        { fix: o.fix === true, dryRun: o.dryRun === true, all: o.all === true, paths: o.paths, ids: o.id },
        (r) => renderDrift(r as DriftReport),
      ),
    );
}

export function renderDrift(r: DriftReport): string {
  const v = r.verdicts;
  const lines = [
    `drift score ${r.score}/100 for ${r.root} (${(r.millis / 1000).toFixed(2)} s)`,
    `history: ${r.history.note}${r.history.head ? ` at ${r.history.head.slice(0, 10)}` : ''}`,
    `checked ${r.checked.memories} memories, ${r.checked.claims} claims${r.checked.incremental ? ' (changed paths only)' : ''}: ${v.ok} ok, ${v.stale} stale, ${v.moved} moved, ${v.unverifiable} unverifiable`,
  ];
  for (const memory of r.memories) lines.push('', ...memoryLines(memory));
  if (r.fix) {
    lines.push('', r.fix.dryRun ? 'fix (dry run, nothing changed):' : 'fixed:');
    if (r.fix.actions.length === 0) lines.push('  nothing to repair');
    for (const a of r.fix.actions)
      lines.push(
        `  ${a.action.padEnd(10)} ${a.id}  ${a.action === 'rewrite' ? oneLine(a.content ?? '') : a.reason}${a.action === 'review' && a.content !== undefined ? ` -> ${oneLine(a.content)}` : ''}`,
      );
  } else if (r.memories.some((m) => m.suggestion)) {
    lines.push('', 'run engram drift --fix --dry-run to see the repairs, engram drift --fix to apply them');
  }
  return lines.join('\n');
}

function memoryLines(m: MemoryDrift): string[] {
  const until = m.validTo ? ` valid until ${new Date(m.validTo).toISOString()}` : '';
  const lines = [`${m.status.toUpperCase()} ${m.id}${until}  ${oneLine(m.excerpt)}`];
  for (const c of m.claims) {
    if (c.verdict === 'ok' && m.status !== 'ok') continue;
    const commit = c.evidence.commit
      ? `  [${c.evidence.commit.hash.slice(0, 10)} ${c.evidence.commit.date.slice(0, 10)} "${oneLine(c.evidence.commit.message)}"]`
      : '';
    // A repairable claim shows its repair; another drifted one what the code says now.
    const target = c.evidence.target
      ? ` -> ${c.evidence.target}`
      : c.evidence.repair
        ? ` -> ${c.evidence.repair.text}`
        : c.evidence.now !== undefined && c.verdict !== 'ok'
          ? ` (now ${oneLine(c.evidence.now)})`
          : '';
    lines.push(
      `  ${c.verdict.padEnd(12)} ${c.kind} ${c.negated ? 'NOT ' : ''}${c.subject}: ${c.evidence.reason}${target}${commit}`,
    );
  }
  if (m.suggestion) lines.push(`  suggested: ${m.suggestion}`);
  return lines;
}

export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
