import path from 'node:path';
import * as vscode from 'vscode';
import type { ScanRunner } from './scanRunner';
import { readSettings } from '../settings';

/** Changes under these never change the code index (Engram's own files, git internals). */
const IGNORED = /(^|[\\/])(\.engram|\.git|node_modules)([\\/]|$)/;

/**
 * The path of `uri` relative to `root` with `/` separators; undefined when it is not a file inside
 * the workspace (then the whole workspace is rescanned).
 */
export function relativeToRoot(root: string, uri: vscode.Uri): string | undefined {
  const relative = path.relative(path.resolve(root), uri.fsPath);
  if (
    relative === '' ||
    relative === '..' ||
    relative.startsWith(`..${path.sep}`) ||
    path.isAbsolute(relative)
  )
    return undefined;
  return relative.split(path.sep).join('/');
}

/**
 * Feeds the incremental scan from the editor: saves, creates, deletes and renames (in VS Code or on
 * disk) rescan the paths they name; a branch switch or pull (git rewrites .git/HEAD or the ref it
 * points to) rescans the workspace. Each event only schedules a debounced scan, so typing and
 * saving never wait for Engram. Events come in bursts (a copy or a checkout: hundreds in one
 * message from the workbench, handed to every extension's watcher in the same turn): they are
 * gathered and passed on once per burst, reading the settings once rather than once per file.
 */
export function watchWorkspace(root: string, scans: ScanRunner): vscode.Disposable[] {
  let burst: { reasons: Set<string>; whole: boolean; paths: string[] } | undefined;
  const flush = () => {
    const b = burst;
    burst = undefined;
    if (!b || !readSettings().autoScan) return;
    const reason = [...b.reasons].join('+');
    if (b.whole) scans.schedule(reason);
    else if (b.paths.length > 0) scans.schedule(reason, b.paths);
  };
  /** Without `uris`, or with one outside the workspace, the whole workspace is rescanned. */
  const schedule = (reason: string, uris?: readonly vscode.Uri[]) => {
    if (!burst) {
      burst = { reasons: new Set(), whole: false, paths: [] };
      queueMicrotask(flush);
    }
    const b = burst;
    if (!uris) {
      b.reasons.add(reason);
      b.whole = true;
      return;
    }
    // Documents that are not files (settings, untitled, output) never change the code index.
    for (const uri of uris.filter((u) => u.scheme === 'file')) {
      const relative = relativeToRoot(root, uri);
      b.reasons.add(reason);
      if (relative === undefined) b.whole = true;
      else if (!IGNORED.test(relative)) b.paths.push(relative);
    }
  };
  const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '**/*'));
  const git = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(root, '.git/{HEAD,ORIG_HEAD,FETCH_HEAD,refs/heads/**}'),
  );
  return [
    files,
    git,
    files.onDidCreate((uri) => schedule('create', [uri])),
    files.onDidDelete((uri) => schedule('delete', [uri])),
    files.onDidChange((uri) => schedule('change', [uri])),
    vscode.workspace.onDidSaveTextDocument((doc) => schedule('save', [doc.uri])),
    vscode.workspace.onDidRenameFiles((e) =>
      schedule(
        'rename',
        e.files.flatMap((f) => [f.oldUri, f.newUri]),
      ),
    ),
    git.onDidChange(() => schedule('git')),
    git.onDidCreate(() => schedule('git')),
  ];
}
