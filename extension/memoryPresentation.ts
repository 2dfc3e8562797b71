import * as vscode from 'vscode';
import type { Memory } from '../engine/index';
import { ageOf, authorOf, kindLabel, memorySummary, sourceLabel } from './memoryText';

export { memoryTitle, plural } from './memoryText';

/** A codicon per memory kind, so a glance at the tree tells decisions from errors from code. */
export const KIND_ICONS: Record<string, string> = {
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

export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** A row's description: kind, age and source in words (ids are in the tooltip and the document). */
export function memoryDescription(memory: Memory): string {
  return memorySummary(memory, Date.now());
}

/**
 * A hover or tooltip for a memory. Content comes from agents and files: it is appended as text
 * (escaped), never as trusted Markdown. The id is the last line, for the CLI and agents.
 */
export function memoryTooltip(memory: Memory): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${kindLabel(memory.kind)}** in ${memory.layer} memory`);
  md.appendMarkdown(memory.pinned ? ' · pinned\n\n' : '\n\n');
  md.appendText(memory.content);
  const source = sourceLabel(memory);
  md.appendMarkdown('\n\n---\n\n');
  md.appendText(
    `Remembered ${ageOf(memory.validFrom, Date.now())} by ${authorOf(memory)}${source ? ` · from ${source}` : ''}`,
  );
  if (memory.status !== 'active')
    md.appendText(` · ${memory.status}${memory.statusReason ? `: ${memory.statusReason}` : ''}`);
  md.appendMarkdown(`\n\nid \`${memory.id}\``);
  return md;
}
