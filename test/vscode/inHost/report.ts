import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { figures, runRegistered } from './harness';
import type { InHostResult } from './harness';

/**
 * Runs the registered tests inside the extension host (a runner's run() calls this once the window
 * is up). Results go to ENGRAM_VSCODE_RESULTS (or the workspace), written after every test so a hang
 * still leaves the ones before it.
 */
export async function runAndReport(): Promise<void> {
  const file =
    process.env['ENGRAM_VSCODE_RESULTS'] ??
    path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '.', 'results.json');
  const done: InHostResult[] = [];
  // Written aside and renamed over, so the reader never sees half a file.
  const write = (finished: boolean) => {
    writeFileSync(`${file}.tmp`, JSON.stringify({ finished, results: done, figures }, null, 2));
    renameSync(`${file}.tmp`, file);
  };
  write(false);
  await runRegistered((result) => {
    done.push(result);
    write(false);
  });
  figures['heap used MB'] = Math.round(process.memoryUsage().heapUsed / 1e6);
  figures['rss MB'] = Math.round(process.memoryUsage().rss / 1e6);
  write(true);
}
