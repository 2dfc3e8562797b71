import type { Annotation, Memory, MemoryVersion, RememberResult } from '../memory/types';
import type { RecallResult } from '../retrieval/recall';
import { markedContent } from '../memory/negativeKnowledge';

/** Human-readable renderings for the CLI; `--json` bypasses these and prints the raw result. */

export function when(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace('.000Z', 'Z');
}

function clip(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

export function memoryLine(memory: Memory | MemoryVersion): string {
  const flags = [
    'pinned' in memory && memory.pinned ? 'pinned' : '',
    memory.critical ? 'critical' : '',
    memory.status !== 'active' ? memory.status : '',
  ].filter(Boolean);
  return `${memory.id}  ${memory.layer}/${memory.kind}${flags.length ? ` [${flags.join(', ')}]` : ''}  ${clip(markedContent(memory, memory.content))}`;
}

export function memoryDetail(memory: Memory, annotations: Annotation[] = []): string {
  const lines = [
    `id:         ${memory.id} (version ${memory.version})`,
    `layer/kind: ${memory.layer}/${memory.kind}`,
    `status:     ${memory.status}${memory.statusReason ? ` (${memory.statusReason})` : ''}${memory.supersededBy ? ` by ${memory.supersededBy}` : ''}`,
    `valid:      ${when(memory.validFrom)} .. ${memory.validTo === null ? 'now' : when(memory.validTo)}`,
    `recorded:   ${when(memory.recordedAt)}`,
    `importance: ${memory.importance}  trust: ${memory.trust}  scope: ${memory.scope}${memory.pinned ? '  pinned' : ''}${memory.critical ? '  critical' : ''}`,
    `agent:      ${memory.agent ?? '-'}  session: ${memory.session ?? '-'}`,
    `used:       ${memory.accessCount} reads, confirmed ${memory.confirmations}x`,
  ];
  if (memory.tags.length) lines.push(`tags:       ${memory.tags.join(', ')}`);
  if (memory.conflictKey) lines.push(`conflict:   ${memory.conflictKey}`);
  lines.push('', memory.content);
  if (memory.context) lines.push('', 'context:', memory.context);
  for (const note of annotations)
    lines.push('', `note ${when(note.createdAt)}${note.agent ? ` (${note.agent})` : ''}: ${note.text}`);
  return lines.join('\n');
}

export function rememberLine(result: RememberResult): string {
  const verb = {
    added: 'remembered',
    updated: 'updated a near-duplicate',
    unchanged: 'already known (confirmed again)',
    superseded: 'remembered',
  }[result.outcome];
  const similar = result.similarity === undefined ? '' : ` (similarity ${result.similarity.toFixed(2)})`;
  const lines = [`${verb}${similar}: ${memoryLine(result.memory)}`];
  if (result.merged)
    lines.push(
      `merged into ${result.merged.into}, replacing "${clip(result.merged.previousContent, 70)}" (${result.merged.reason})`,
    );
  for (const id of result.superseded) lines.push(`superseded: ${id}`);
  if (result.redacted.length) lines.push(`redacted secrets: ${result.redacted.join(', ')}`);
  return lines.join('\n');
}

export function versionLine(version: MemoryVersion): string {
  const end = version.supersededAt === null ? 'current' : `until ${when(version.supersededAt)}`;
  return `v${version.version}  ${version.change.padEnd(11)} ${when(version.recordedAt)} (${end})  ${version.status}${version.statusReason ? `: ${version.statusReason}` : ''}  ${clip(version.content, 70)}`;
}

export function renderRecall(result: RecallResult): string {
  const lines = result.hits.map((hit) => {
    const via = Object.entries(hit.channels)
      .map(([name, c]) => `${name}#${c.rank}`)
      .join(' ');
    return `${hit.score.toFixed(4)}  ${memoryLine(hit.memory)}${result.trace ? `\n          via ${via}${hit.boosts ? `; boost x${hit.boosts.total.toFixed(2)}` : ''}` : ''}`;
  });
  if (lines.length === 0) lines.push('(none)');
  const trace = result.trace;
  if (trace) {
    lines.push(
      '',
      `intent: ${trace.intent}; terms: ${trace.terms.join(' ')}; entities: ${trace.entities.join(', ') || '-'}`,
      ...trace.channels.map(
        (c) => `channel ${c.name}: weight ${c.weight}, ${c.candidates} candidates, ${c.ms} ms`,
      ),
      ...trace.dropped.slice(0, 10).map((d) => `dropped ${d.memoryId}: ${d.reason}`),
      `total ${trace.totalMs} ms`,
    );
  }
  return lines.join('\n');
}

/** One item per line, or `(none)`. */
export function listOrNone(lines: string[]): string {
  return lines.length ? lines.join('\n') : '(none)';
}
