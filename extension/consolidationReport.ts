import type { MethodResult } from '../engine/index';
import { plural } from './memoryText';

/** One Consolidate Now run (or its plan): the lifecycle pass, then consolidation. */
export interface ConsolidationReport {
  dryRun: boolean;
  lifecycle: MethodResult<'lifecycle'>;
  consolidation: MethodResult<'consolidate'>;
}

/** What a run would change or changed, counted: nothing to do when every count is 0. */
export function reportCounts(report: ConsolidationReport): {
  clusters: number;
  merged: number;
  promoted: number;
  archived: number;
  peerCards: number;
} {
  const { lifecycle, consolidation } = report;
  const clusters = report.dryRun ? consolidation.clusters.length : consolidation.created.length;
  const merged = report.dryRun
    ? consolidation.clusters.reduce((sum, c) => sum + c.members.length, 0)
    : consolidation.touched;
  return {
    clusters,
    merged,
    promoted: lifecycle.promoted.length,
    archived: lifecycle.archived.length,
    peerCards: lifecycle.peerCards.changes.length,
  };
}

/** One line for the notification: what was (or would be) done, step by step. */
export function reportLine(report: ConsolidationReport): string {
  const n = reportCounts(report);
  const parts = [
    `${report.dryRun ? 'merge' : 'merged'} ${plural(n.merged, 'memory', 'memories')} into ${plural(n.clusters, 'summary', 'summaries')}`,
    `${report.dryRun ? 'promote' : 'promoted'} ${n.promoted}`,
    `${report.dryRun ? 'archive' : 'archived'} ${n.archived}`,
  ];
  if (n.peerCards > 0)
    parts.push(
      `${report.dryRun ? 'refresh' : 'refreshed'} ${plural(n.peerCards, 'peer card', 'peer cards')}`,
    );
  return parts.join(', ');
}

/** The read-only document behind "Show Details": every step, and each cluster with its members. */
export function reportDocument(report: ConsolidationReport): string {
  const { lifecycle, consolidation } = report;
  const n = reportCounts(report);
  const lines = [
    `# Engram consolidation ${report.dryRun ? 'plan (nothing changed yet)' : 'run'}`,
    '',
    `${reportLine(report)}.`,
    '',
    '| step | count |',
    '|---|---|',
    `| promoted between layers | ${n.promoted} |`,
    `| archived (faded) | ${n.archived} |`,
    `| peer cards created, rewritten or retired | ${n.peerCards} |`,
    `| clusters ${report.dryRun ? 'planned' : 'consolidated'} | ${n.clusters} |`,
    `| memories ${report.dryRun ? 'to be' : ''} superseded by a summary | ${n.merged} |`,
    '',
  ];
  if (!report.dryRun)
    lines.push(
      `Planned in ${consolidation.plannedIn === 'worker' ? 'a worker' : 'the engine'}, applied in ${plural(consolidation.slices, 'slice', 'slices')}, ${Math.round(consolidation.workMs)} ms of work.`,
      '',
    );
  if (consolidation.clusters.length > 0) lines.push('## Clusters', '');
  consolidation.clusters.forEach((cluster, i) => {
    lines.push(
      `### ${i + 1}. ${cluster.reason === 'faded' ? 'A faded session' : 'Related, recalled memories'} (${plural(cluster.members.length, 'member', 'members')})`,
      '',
      ...(cluster.entities.length > 0 ? [`Entities: ${cluster.entities.join(', ')}`, ''] : []),
      ...cluster.summary.split('\n').map((line) => `> ${line}`),
      '',
      ...(cluster.origin ? [summaryOriginLine(cluster.origin), ''] : []),
      `Members: ${cluster.members.join(', ')}`,
      '',
    );
  });
  if (lifecycle.promoted.length > 0) {
    lines.push('## Promoted', '');
    for (const p of lifecycle.promoted) lines.push(`- ${p.memoryId}: ${p.from} -> ${p.to} (${p.reason})`);
    lines.push('');
  }
  if (lifecycle.archived.length > 0) {
    lines.push('## Archived', '');
    for (const a of lifecycle.archived) lines.push(`- ${a.memoryId}: ${a.excerpt} (${a.reason})`);
    lines.push('');
  }
  if (!report.dryRun)
    lines.push(
      "Undo restores the superseded members, the archived memories and the promoted memories' layers.",
      '',
    );
  return lines.join('\n');
}

/** Who wrote a summary, when a model was asked: its name, or why the extractive gist stayed. */
function summaryOriginLine(
  origin: NonNullable<MethodResult<'consolidate'>['clusters'][number]['origin']>,
): string {
  return origin.by === 'model'
    ? `Summary written by ${origin.model} (tagged model-written).`
    : `Extractive summary: the model's was not used (${origin.reason}).`;
}
