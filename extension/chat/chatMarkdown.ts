import * as vscode from 'vscode';
import type { Memory } from '../../engine/memory/types';
import { memoryUri } from '../memoryDocuments';
import { shortId } from '../memoryPresentation';

/**
 * Memory content is untrusted (agents and files wrote it): it goes into chat as escaped text, and
 * only the frame around it (ids, kinds, links Engram builds itself) is Markdown.
 */
export function escapedText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`).replace(/\r?\n/g, '  \n');
}

/** One memory as a list item, with its id linked to the read-only memory document. */
export function memoryListItem(memory: Memory, score?: number): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`- [\`${shortId(memory.id)}\`](${memoryUri(memory.id).toString()}) **${memory.kind}**`);
  if (memory.pinned) md.appendMarkdown(' 📌');
  if (score !== undefined) md.appendMarkdown(` _${score.toFixed(3)}_`);
  md.appendMarkdown(`: ${escapedText(memory.content.replace(/\s+/g, ' ').slice(0, 400))}\n`);
  return md;
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
