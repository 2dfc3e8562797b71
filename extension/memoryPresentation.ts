import * as vscode from 'vscode';
import type { Memory } from '../engine/memory/types';

/** A codicon per memory kind, so a glance at the tree tells decisions from errors from code. */
const KIND_ICONS: Record<string, string> = {
  fact: 'info',
  decision: 'law',
  preference: 'heart',
  'error-pattern': 'bug',
  procedure: 'list-ordered',
  negative: 'circle-slash',
  interaction: 'comment-discussion',
  summary: 'note',
  note: 'edit',
  'code-file': 'file-code',
  'code-symbol': 'symbol-method',
  'code-module': 'package',
  config: 'gear',
};

export const LAYER_ICONS: Record<string, string> = {
  working: 'pulse',
  episodic: 'history',
  semantic: 'book',
  procedural: 'tools',
  codebase: 'code',
};

/** `1 memory`, `2 memories`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What each layer holds, in the words the walkthrough uses (extension/media/walkthrough/what.md). */
export const LAYER_DESCRIPTIONS: Record<string, string> = {
  working: 'Notes for the current session',
  episodic: 'What happened, and when',
  semantic: 'Facts and decisions that hold until something changes them',
  procedural: 'How to do things: commands, steps, conventions',
  codebase: 'Summaries of your files, made by scanning the workspace',
};

export function kindIcon(memory: Pick<Memory, 'kind' | 'pinned' | 'status'>): vscode.ThemeIcon {
  if (memory.status !== 'active')
    return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
  if (memory.pinned) return new vscode.ThemeIcon('pinned');
  return new vscode.ThemeIcon(KIND_ICONS[memory.kind] ?? 'circle-outline');
}

/** The first line of the content, cut to fit a tree row or a quick pick. */
export function memoryTitle(memory: Pick<Memory, 'content'>, max = 80): string {
  const firstLine = memory.content.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return firstLine.length > max ? `${firstLine.slice(0, max - 1)}…` : firstLine;
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

export function memoryDescription(memory: Memory): string {
  const parts = [memory.kind, shortId(memory.id)];
  if (memory.status !== 'active') parts.unshift(memory.status);
  if (memory.tags.length > 0) parts.push(memory.tags.map((t) => `#${t}`).join(' '));
  return parts.join(' · ');
}

/**
 * A hover or tooltip for a memory. Content comes from agents and files: it is appended as text
 * (escaped), never as trusted Markdown.
 */
export function memoryTooltip(memory: Memory): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${memory.layer} · ${memory.kind}** \`${shortId(memory.id)}\`\n\n`);
  md.appendText(memory.content);
  md.appendMarkdown(
    `\n\n---\n\n${memory.status}${memory.pinned ? ' · pinned' : ''} · importance ${memory.importance.toFixed(2)} · trust ${memory.trust} · since ${new Date(memory.validFrom).toLocaleDateString()}`,
  );
  return md;
}

/** The read-only document `Open Memory` shows: the memory, its versions and notes, as Markdown. */
export function memoryDocument(
  memory: Memory,
  versions: Array<{ version: number; change: string; recordedAt: number; content: string }>,
  annotations: Array<{ text: string; createdAt: number; agent: string | null }>,
): string {
  const lines = [
    `# ${memoryTitle(memory, 100)}`,
    '',
    '```text',
    memory.content.replace(/```/g, '`\u200b``'),
    '```',
    '',
    `| field | value |`,
    `| --- | --- |`,
    `| id | ${memory.id} |`,
    `| layer / kind | ${memory.layer} / ${memory.kind} |`,
    `| status | ${memory.status}${memory.statusReason ? ` (${memory.statusReason})` : ''} |`,
    `| pinned / critical | ${memory.pinned} / ${memory.critical} |`,
    `| tags | ${memory.tags.join(', ') || '-'} |`,
    `| importance / trust | ${memory.importance.toFixed(2)} / ${memory.trust} |`,
    `| valid | ${new Date(memory.validFrom).toISOString()} - ${memory.validTo ? new Date(memory.validTo).toISOString() : 'now'} |`,
    `| agent / session | ${memory.agent ?? '-'} / ${memory.session ?? '-'} |`,
    `| source | ${memory.source?.file ?? memory.source?.commit ?? memory.source?.url ?? '-'} |`,
    '',
    '## Versions',
    '',
    ...versions.map(
      (v) => `- v${v.version} ${v.change} ${new Date(v.recordedAt).toISOString()}: ${memoryTitle(v, 100)}`,
    ),
  ];
  if (annotations.length > 0) {
    lines.push('', '## Notes', '');
    for (const a of annotations)
      lines.push(`- ${new Date(a.createdAt).toISOString()}${a.agent ? ` (${a.agent})` : ''}: ${a.text}`);
  }
  return `${lines.join('\n')}\n`;
}
