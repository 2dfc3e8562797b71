import * as vscode from 'vscode';
import type { Memory } from '../../engine/index';
import type { DriftFinding } from '../driftReport';
import { OPEN_MEMORY_COMMAND, driftChatItem, memoryChatItem } from './chatText';
import type { ChatItemOptions } from './chatText';

export { escapedText } from './chatText';

/** Markdown whose only runnable link is Open Memory (the content in it is escaped text). */
function trustedForOpening(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text);
  md.isTrusted = { enabledCommands: [OPEN_MEMORY_COMMAND] };
  md.supportHtml = false;
  return md;
}

/** One memory as a list item in words (kind, age, source), its first line opening its document. */
export function memoryListItem(memory: Memory, options?: ChatItemOptions): vscode.MarkdownString {
  return trustedForOpening(memoryChatItem(memory, Date.now(), options));
}

/** One stale memory of a drift check as a list item, opening its document on a click. */
export function driftListItem(finding: DriftFinding): vscode.MarkdownString {
  return trustedForOpening(driftChatItem(finding));
}

/** A file a memory came from, as a clickable reference (with the range when the memory has one). */
export function sourceReference(
  memory: Memory,
  root: vscode.Uri | undefined,
): vscode.Uri | vscode.Location | undefined {
  const file = memory.source?.file;
  if (!file || !root) return undefined;
  const uri = file.startsWith('/') ? vscode.Uri.file(file) : vscode.Uri.joinPath(root, file);
  const lines = /:(\d+)-(\d+)$/.exec(memory.context ?? '');
  if (!lines) return uri;
  return new vscode.Location(uri, new vscode.Range(Number(lines[1]) - 1, 0, Number(lines[2]) - 1, 0));
}
