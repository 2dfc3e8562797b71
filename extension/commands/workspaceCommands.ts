import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { readSettings } from '../settings';

/** Scanning the workspace and the context block for the file in the editor. */
export function registerWorkspaceCommands(services: EngramServices): vscode.Disposable[] {
  const { engine, scans, log, documents } = services;
  return [
    guardedCommand('engram.scanWorkspace', log, () =>
      vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'Engram: scanning the workspace',
          cancellable: false,
        },
        async (progress) => {
          let reported = 0;
          const listener = scans.onDidProgress((p) => {
            if (!p || p.total === 0) return;
            const percent = (100 * p.done) / p.total;
            progress.report({
              message: `${p.phase} ${p.done}/${p.total}`,
              increment: Math.max(0, percent - reported),
            });
            reported = percent;
          });
          try {
            const result = await scans.scan();
            if (result) {
              const c = result.changes;
              void vscode.window.showInformationMessage(
                `Engram: scanned ${result.files} files (${c.added.length} added, ${c.changed.length} changed, ${c.deleted.length} removed), ${result.symbols} symbols.`,
              );
            }
            return result;
          } finally {
            listener.dispose();
          }
        },
      ),
    ),
    /**
     * The context block an agent would get for this file (and the selection), within the budget.
     * With no file (no editor, nothing passed), the block an agent starting on the workspace gets.
     */
    guardedCommand('engram.showFileContext', log, async (uriArg?: unknown) => {
      const editor = vscode.window.activeTextEditor;
      const uri = uriArg instanceof vscode.Uri ? uriArg : editor?.document.uri;
      const file = uri ? vscode.workspace.asRelativePath(uri, false) : undefined;
      const selected =
        uri && editor && !editor.selection.isEmpty
          ? editor.document.getText(editor.selection).slice(0, 500)
          : '';
      const workspace = vscode.workspace.name ?? 'workspace';
      const query = file === undefined ? workspace : selected ? `${file} ${selected}` : file;
      // Its own conversation each time: showing the block must not mark memories as given to an agent.
      const shown = {
        budget: readSettings().contextBudget,
        conversation: `vscode-show-context-${Date.now()}`,
      };
      // No file: the block a fresh agent session on this workspace starts with (the folder's name
      // is no query: without a dense model it matched nothing).
      const block =
        file === undefined
          ? await engine.call('prime', shown)
          : await engine.call('context', { query, ...shown });
      const subject = file === undefined ? `the workspace ${workspace}` : file;
      const text = [
        `<!-- Engram context for ${subject}: ${block.tokens}/${block.budget} tokens, ${block.included.length} memories -->`,
        '',
        block.text || `_No memory mentions ${file === undefined ? 'this workspace' : 'this file'} yet._`,
        '',
      ].join('\n');
      const doc = await vscode.workspace.openTextDocument(
        documents.show(`/context/${Date.now()}/${file ?? workspace}.md`, text),
      );
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return block;
    }),
  ];
}
