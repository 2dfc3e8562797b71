import * as vscode from 'vscode';

/** The folder whose memory Engram serves: the first workspace folder on disk, if any. */
export function workspaceRoot(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder?.uri.fsPath;
}
