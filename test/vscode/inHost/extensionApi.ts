import * as vscode from 'vscode';
import type { EngramExtensionApi } from '../../../extension/extension';
import { eventually } from './harness';

export const EXTENSION_ID = 'engram.engram';

/** The activated extension's API, with its engine ready. */
export async function engramApi(): Promise<EngramExtensionApi> {
  const extension = vscode.extensions.getExtension<EngramExtensionApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  const api = extension.isActive ? extension.exports : await extension.activate();
  await eventually('the engine to be ready', () => api.engine.state === 'ready' || undefined);
  return api;
}

export function workspacePath(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the test window has no workspace folder');
  return folder.uri.fsPath;
}
