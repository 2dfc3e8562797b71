import path from 'node:path';
import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import { memoryUri } from '../memoryDocuments';

/**
 * Everything opens beside the panel and leaves the focus on it: the panel stays visible (it is
 * not kept alive while hidden) and the user goes on exploring.
 */
const BESIDE = { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true } as const;

/**
 * Opens a memory read-only, as Open Memory does, beside the panel (the Graph's or the Timeline's),
 * in a tab named by its words like every other memory tab.
 */
export async function openMemoryBeside(engine: EngineConnection, id: string): Promise<void> {
  const { memory } = await engine.call('get', { id, readOnly: true });
  const uri = memoryUri(id, memory.content);
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), BESIDE);
}

/**
 * Opens a file entity (a workspace-relative path the engine extracted) in the editor. The name
 * comes from memory content, so it is only ever joined under a workspace folder and must stay
 * inside it.
 */
export async function openFileEntity(name: string, log: vscode.LogOutputChannel): Promise<void> {
  const relative = path.posix.normalize(name.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
  if (path.posix.isAbsolute(relative) || relative.startsWith('../') || relative === '..') {
    void vscode.window.showWarningMessage(`Engram: ${name} is not a path inside the workspace.`);
    return;
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, relative);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) {
        await vscode.commands.executeCommand('revealInExplorer', uri);
      } else {
        await vscode.window.showTextDocument(uri, BESIDE);
      }
      return;
    } catch {
      // Not in this folder: try the next.
    }
  }
  log.info(`graph: ${relative} is not in the workspace`);
  void vscode.window.showInformationMessage(`Engram: ${relative} is not in this workspace (any more).`);
}

/**
 * Opens a symbol entity (`verifySession()`, `AuthService.login`) at its definition, found through
 * the workspace symbol providers: an exact name match first, then the first result.
 */
export async function openSymbolEntity(name: string, log: vscode.LogOutputChannel): Promise<void> {
  const bare = name.replace(/\(\)$/, '');
  const last = bare.split(/[.#:]+/).pop() ?? bare;
  let found: vscode.SymbolInformation[] = [];
  try {
    found =
      (await vscode.commands.executeCommand<vscode.SymbolInformation[]>(
        'vscode.executeWorkspaceSymbolProvider',
        last,
      )) ?? [];
  } catch (error) {
    log.warn(`graph: the symbol search for ${last} failed: ${String(error)}`);
  }
  const exact = found.find((s) => s.name === last || s.name === bare) ?? found[0];
  if (!exact) {
    void vscode.window.showInformationMessage(`Engram: no symbol named ${bare} found in the workspace.`);
    return;
  }
  await vscode.window.showTextDocument(exact.location.uri, {
    preview: true,
    selection: exact.location.range,
  });
}
