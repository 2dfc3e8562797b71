import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { figures, runRegistered } from './harness';
import type { InHostResult } from './harness';
// Suites register their tests on import, in the order they run.
import './suites/activationSuite';
import './suites/memorySuite';
import './suites/exchangeSuite';
import './suites/scanSuite';
import './suites/editorSuite';
import './suites/chatSuite';
import './suites/driftSuite';
import './suites/timelineSuite';
import './suites/graphSuite';
import './suites/shutdownSuite';

/**
 * The extensionTestsPath entry: VS Code calls run() inside the extension host once the window is
 * up. Results go to ENGRAM_VSCODE_RESULTS (or the workspace), written after every test so a hang
 * still leaves the ones before it.
 */
export async function run(): Promise<void> {
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
