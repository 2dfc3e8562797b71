import path from 'node:path';
import * as vscode from 'vscode';
import { workspaceRoot } from '../workspaceRoot';

/**
 * Everything opens beside the panel, keeping the focus on it: one click shows a memory or a file
 * and the user goes on exploring the timeline.
 */
const BESIDE = { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true } as const;

/**
 * Opening what a memory names, from the timeline: a workspace file (a relative path, checked to
 * stay inside the workspace) or a symbol (through the workspace symbol providers).
 */
export async function openWorkspaceFile(relative: string, line?: number): Promise<void> {
  const root = workspaceRoot();
  if (!root) throw new Error('no workspace folder is open');
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep))
    throw new Error(`${relative} is outside the workspace`);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const at = line === undefined ? undefined : new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(document, {
    ...BESIDE,
    ...(at ? { selection: new vscode.Range(at, at) } : {}),
  });
}

/** Opens the best match for `name` (`Container.member` matches on the last part and its container). */
export async function openWorkspaceSymbol(name: string): Promise<void> {
  const parts = name.split('.');
  const last = parts.at(-1) ?? name;
  const container = parts.length > 1 ? parts.at(-2) : undefined;
  const found =
    (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
      'vscode.executeWorkspaceSymbolProvider',
      last,
    )) ?? [];
  const exact = found.filter((s) => s.name === last);
  const best =
    exact.find((s) => container === undefined || s.containerName === container) ?? exact[0] ?? found[0];
  if (!best) throw new Error(`no symbol named ${name} was found in the workspace`);
  await vscode.window.showTextDocument(best.location.uri, { ...BESIDE, selection: best.location.range });
}
