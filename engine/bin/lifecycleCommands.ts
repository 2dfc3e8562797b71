import type { Command } from 'commander';
import { parseNumber } from './cliArguments';
import type { Invoke } from './cliArguments';
import type { MethodResult } from '../api/methods';
import { invalidInput } from '../errors';
import { LIFECYCLE_SETTING_FIELDS } from '../lifecycle/lifecycleSettings';
import { openAiSummariser, summaryEndpointFromEnv } from '../lifecycle/openAiSummariser';
import { consolidateWithModel } from '../lifecycle/summariser';

/**
 * `engram explain <id>`, `lifecycle [--apply]`, `lifecycle-settings [--set key=value ...]`,
 * `consolidate [--apply]`, `unconsolidate <id>`, `dedup [--apply]`; `--json` is global.
 */
export function registerLifecycleCommands(program: Command, invoke: Invoke, env: NodeJS.ProcessEnv): void {
  program
    .command('explain')
    .argument('<id>')
    .description("why a memory is kept or would be archived: retention and importance's factors")
    .action((id: string) => invoke('explain', { id }, (r) => renderExplain(r as MethodResult<'explain'>)));

  program
    .command('lifecycle')
    .option('--apply', 'do it (without it: only say what would be done)')
    .description(
      'promote working notes and important episodes; archive episodes that have faded (restore brings one back)',
    )
    .action((o: { apply?: boolean }) =>
      invoke('lifecycle', { dryRun: o.apply !== true }, (r) =>
        renderLifecycle(r as MethodResult<'lifecycle'>),
      ),
    );

  program
    .command('lifecycle-settings')
    .option('--set <key=value...>', 'change settings, e.g. --set archiveAfterDays=60 decay=false')
    .description(
      "the lifecycle's settings in this database (decay, half-life, curve, archive rule, background run); VS Code's engram.lifecycle.* set the same",
    )
    .action((o: { set?: string[] }) =>
      o.set
        ? invoke('configureLifecycle', settingChanges(o.set), (r) => {
            const { settings, changed } = r as MethodResult<'configureLifecycle'>;
            return `${changed ? 'changed' : 'unchanged'}\n${settingLines(settings)}`;
          })
        : invoke('lifecycleSettings', {}, (r) => settingLines(r as MethodResult<'lifecycleSettings'>)),
    );

  program
    .command('consolidate')
    .option('--apply', 'consolidate (without it: only list the clusters)')
    .option(
      '--summaries <kind>',
      'extractive (default) or model: a language model writes the summaries, marked model-written (ENGRAM_SUMMARY_URL, ENGRAM_SUMMARY_MODEL, key in ENGRAM_SUMMARY_API_KEY)',
    )
    .description('merge clusters of recalled episodes that share entities into one semantic memory each')
    .action((o: { apply?: boolean; summaries?: string }) => {
      if (o.summaries !== undefined && o.summaries !== 'extractive' && o.summaries !== 'model')
        throw invalidInput(`--summaries must be extractive or model; got ${o.summaries}`);
      const render = (r: unknown) => renderConsolidation(r as MethodResult<'consolidate'>);
      if (o.summaries !== 'model' || o.apply !== true)
        return invoke('consolidate', { dryRun: o.apply !== true }, render);
      const endpoint = summaryEndpointFromEnv(env);
      const summariser = endpoint
        ? openAiSummariser(endpoint)
        : { unavailable: 'no language model configured (ENGRAM_SUMMARY_URL is not set)' };
      return invoke('consolidate', { dryRun: false }, render, undefined, (call) =>
        consolidateWithModel((params) => call('consolidate', params), summariser),
      );
    });

  program
    .command('unconsolidate')
    .argument('<id>')
    .description('undo a consolidation: its members back in recall, the consolidated memory superseded')
    .action((id: string) =>
      invoke('unconsolidate', { id }, (r) => {
        const { memoryId, restored } = r as MethodResult<'unconsolidate'>;
        return `unconsolidated ${memoryId}: ${restored.length} restored (${restored.join(', ')})`;
      }),
    );

  program
    .command('dedup')
    .option('--apply', 'merge them (without it: only list the pairs)')
    .option('--threshold <n>', 'cosine similarity from which two memories restate each other', parseNumber)
    .description(
      'merge memories that restate each other into the more important one (needs the embedding model)',
    )
    .action((o: { apply?: boolean; threshold?: number }) =>
      invoke('dedup', { dryRun: o.apply !== true, threshold: o.threshold }, (r) =>
        renderDedup(r as MethodResult<'dedup'>),
      ),
    );
}

/** `key=value` pairs as typed values: true/false, numbers, else text (the engine checks each). */
function settingChanges(pairs: string[]): Record<string, unknown> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      const [key, text] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      if (!(key in LIFECYCLE_SETTING_FIELDS))
        throw invalidInput(
          `--set: no lifecycle setting "${key}"; the settings are ${Object.keys(LIFECYCLE_SETTING_FIELDS).join(', ')}`,
        );
      const value =
        text === 'true'
          ? true
          : text === 'false'
            ? false
            : text !== '' && Number.isFinite(Number(text))
              ? Number(text)
              : text;
      return [key, value];
    }),
  );
}

function settingLines(settings: MethodResult<'lifecycleSettings'>): string {
  return Object.entries(settings)
    .map(([key, value]) => `${key.padEnd(24)} ${String(value)}`)
    .join('\n');
}

function renderConsolidation(r: MethodResult<'consolidate'>): string {
  const lines = [
    `${r.dryRun ? 'would consolidate' : 'consolidated'} ${r.clusters.length} cluster${r.clusters.length === 1 ? '' : 's'}`,
    ...r.clusters.flatMap((c, i) => [
      `  ${c.pattern?.confirms ? `confirms ${c.pattern.confirms}` : (r.created[i] ?? '(new)')} <- ${c.members.join(', ')}: ${c.summary.slice(0, 160)}`,
      // A pattern says why its members are one: the rule a reader can check (lessonPatterns.ts).
      ...(c.pattern
        ? [`    recurring ${c.pattern.rule}: ${c.pattern.same}, in ${c.pattern.sessions.length} sessions`]
        : []),
      // Asked of a model: which wrote it, or why the extractive gist stayed (modelSummaries.ts).
      ...(c.origin
        ? [
            c.origin.by === 'model'
              ? `    model-written by ${c.origin.model}`
              : `    extractive summary (${c.origin.reason})`,
          ]
        : []),
    ]),
  ];
  if (r.dryRun && r.clusters.length > 0) lines.push('(dry run: nothing changed; --apply consolidates them)');
  const { peerCards, probes } = r.next;
  if (peerCards.changes.length + probes.length > 0)
    lines.push(
      `the next lifecycle run would change ${peerCards.changes.length} peer cards and probe ${probes.length} old beliefs`,
      ...peerCards.changes.map((c) => `  ${c.action} ${c.cardId ?? '(new)'}  ${c.entity}: ${c.reason}`),
    );
  return lines.join('\n');
}

function renderDedup(r: MethodResult<'dedup'>): string {
  const count = r.dryRun ? r.pairs.length : r.merged;
  const lines = [
    `${r.dryRun ? 'would merge' : 'merged'} ${count} restatement${count === 1 ? '' : 's'}`,
    ...r.pairs.map((p) => `  ${p.merge} -> ${p.keep} (similarity ${p.similarity}): ${p.mergeExcerpt}`),
  ];
  if (r.dryRun && r.pairs.length > 0) lines.push('(dry run: nothing changed; --apply merges them)');
  return lines.join('\n');
}

function renderExplain(r: MethodResult<'explain'>): string {
  return [
    `${r.memoryId} (${r.layer}, written by ${r.trust}, ${r.status}), ${r.ageDays} days old, ${r.idleDays} idle`,
    ...(r.summary
      ? [
          r.summary.by === 'model'
            ? `summary: model-written by ${r.summary.model}`
            : `summary: extractive (${r.summary.reason})`,
        ]
      : []),
    `retention ${r.retention}`,
    `importance ${r.importance.score}:`,
    ...r.importance.factors.map(
      (f) =>
        `  ${f.factor.padEnd(16)} ${f.value.toFixed(3)} x ${f.weight.toFixed(2)} = ${f.contribution.toFixed(3)}`,
    ),
    ...(r.importance.probe
      ? [`  x ${r.importance.probe.multiplier}: a belief probe found evidence against it (see engram drift)`]
      : []),
    r.archive.due
      ? 'archive: due (the next `engram lifecycle --apply` archives it)'
      : `archive: kept (${r.archive.unmet.join('; ')})`,
  ].join('\n');
}

function renderLifecycle(r: MethodResult<'lifecycle'>): string {
  const would = (done: string, planned: string) => (r.dryRun ? planned : done);
  const lines = [
    `${would('promoted', 'would promote')} ${r.promoted.length}`,
    ...r.promoted.map((p) => `  ${p.memoryId}  ${p.from} -> ${p.to} (${p.reason})`),
    `considered ${r.considered} old, rarely recalled episodes; ${would('archived', 'would archive')} ${r.archived.length}`,
    ...r.archived.map((a) => `  ${a.memoryId}  ${a.reason}: ${a.excerpt}`),
    ...peerCardLines(r.peerCards, r.dryRun),
    ...probeLines(r),
  ];
  if (r.dryRun && r.promoted.length + r.archived.length + r.peerCards.changes.length > 0)
    lines.push('(dry run: nothing changed; --apply does it)');
  return lines.join('\n');
}

/** `peer cards: 3 entities changed; would update 1` and one line per card. */
function peerCardLines(plan: MethodResult<'lifecycle'>['peerCards'], dryRun: boolean): string[] {
  if (plan.considered === 0) return [];
  return [
    `peer cards: ${plan.considered} entities whose memories changed; ${dryRun ? 'would change' : 'changed'} ${plan.changes.length}`,
    ...plan.changes.map((c) => `  ${c.action} ${c.cardId ?? '(new)'}  ${c.entity}: ${c.reason}`),
  ];
}

/** `belief probes: would check 3 old beliefs ...` and, after a run, one line per memory checked. */
function probeLines(r: MethodResult<'lifecycle'>): string[] {
  const { planned, probed } = r.probes;
  if (planned.length === 0) return [];
  if (r.dryRun) return [`belief probes: would check ${planned.length} old beliefs against the workspace`];
  return [
    `belief probes: checked ${probed.length}`,
    ...probed.map((p) => `  ${p.memoryId}  ${p.outcome} (drift: ${p.status})`),
  ];
}
