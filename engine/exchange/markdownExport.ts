import type { Memory } from '../memory/types';
import { LAYERS } from '../memory/types';

/** A readable Markdown rendering of current memories, grouped by layer, newest first. */
export function renderMarkdown(memories: Memory[], title: string, exportedAt: number): string {
  const out: string[] = [
    `# ${title}`,
    '',
    `Exported ${new Date(exportedAt).toISOString()}: ${memories.length} memories.`,
    '',
  ];
  for (const layer of LAYERS) {
    const inLayer = memories.filter((m) => m.layer === layer);
    if (inLayer.length === 0) continue;
    out.push(`## ${layer[0]!.toUpperCase()}${layer.slice(1)} (${inLayer.length})`, '');
    for (const memory of inLayer) {
      const flags = [
        memory.kind,
        memory.status !== 'active' ? memory.status : '',
        memory.pinned ? 'pinned' : '',
        memory.critical ? 'critical' : '',
      ]
        .filter(Boolean)
        .join(', ');
      out.push(`### ${escapeHeading(firstLine(memory.content))}`, '');
      out.push(`- id: \`${memory.id}\` (version ${memory.version}; ${flags})`);
      out.push(
        `- recorded: ${iso(memory.recordedAt)}; valid from ${iso(memory.validFrom)}${memory.validTo ? ` to ${iso(memory.validTo)}` : ''}`,
      );
      if (memory.tags.length) out.push(`- tags: ${memory.tags.join(', ')}`);
      if (memory.agent) out.push(`- agent: ${memory.agent}`);
      if (memory.statusReason) out.push(`- reason: ${memory.statusReason}`);
      out.push('', quote(memory.content), '');
    }
  }
  return out.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function escapeHeading(text: string): string {
  return text.replace(/[#*_`[\]<>]/g, (c) => `\\${c}`);
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
