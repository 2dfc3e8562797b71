import path from 'node:path';
import * as vscode from 'vscode';
import type { ScanRunner } from './scanRunner';
import { readSettings } from '../settings';

/** Changes under these never change the code index (Engram's own files, git internals). */
const IGNORED = /(^|[\\/])(\.engram|\.git|node_modules)([\\/]|$)/;

/**
 * Feeds the incremental scan from the editor: saves, creates, deletes and renames (in VS Code or on
 * disk), and a branch switch or pull (git rewrites .git/HEAD or the ref it points to). Each event
 * only schedules a debounced scan, so typing and saving never wait for Engram.
 */
export function watchWorkspace(root: string, scans: ScanRunner): vscode.Disposable[] {
  const schedule = (reason: string, uri?: vscode.Uri) => {
    if (!readSettings().autoScan) return;
    if (uri && IGNORED.test(path.relative(root, uri.fsPath))) return;
    scans.schedule(reason);
  };
  const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '**/*'));
  const git = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(root, '.git/{HEAD,ORIG_HEAD,FETCH_HEAD,refs/heads/**}'),
  );
  return [
    files,
    git,
    files.onDidCreate((uri) => schedule('create', uri)),
    files.onDidDelete((uri) => schedule('delete', uri)),
    files.onDidChange((uri) => schedule('change', uri)),
    vscode.workspace.onDidSaveTextDocument((doc) => schedule('save', doc.uri)),
    vscode.workspace.onDidRenameFiles(() => schedule('rename')),
    git.onDidChange(() => schedule('git')),
    git.onDidCreate(() => schedule('git')),
  ];
}
