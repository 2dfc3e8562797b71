import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { detectImportFormat } from '../importFormat';
import { importSummary } from '../importSummary';
import { workspaceRoot } from '../workspaceRoot';

/** Export to Engram JSONL or Markdown; import Engram JSONL or the MCP memory server's memory.jsonl. */
export function registerExchangeCommands(services: EngramServices): vscode.Disposable[] {
  const { engine, log } = services;
  const root = workspaceRoot();
  return [
    guardedCommand('engram.exportMemories', log, async (target?: unknown) => {
      const uri =
        target instanceof vscode.Uri
          ? target
          : await vscode.window.showSaveDialog({
              title: 'Engram: Export memories',
              defaultUri: root ? vscode.Uri.file(`${root}/engram-export.jsonl`) : undefined,
              filters: { 'Engram JSONL (lossless)': ['jsonl'], 'Markdown (for reading)': ['md'] },
            });
      if (!uri) return undefined;
      const format = uri.fsPath.endsWith('.md') ? 'md' : 'jsonl';
      const result = await engine.call('export', { file: uri.fsPath, format });
      void vscode.window.showInformationMessage(
        `Engram: exported to ${vscode.workspace.asRelativePath(uri)}`,
      );
      return result;
    }),
    guardedCommand('engram.importMemories', log, async (source?: unknown) => {
      const uri =
        source instanceof vscode.Uri
          ? source
          : (
              await vscode.window.showOpenDialog({
                title: 'Engram: Import memories',
                canSelectMany: false,
                filters: { 'JSON Lines': ['jsonl', 'json'], 'All files': ['*'] },
              })
            )?.[0];
      if (!uri) return undefined;
      const text = await readFile(uri.fsPath, 'utf8');
      const from =
        detectImportFormat(text) ??
        (
          await vscode.window.showQuickPick(
            [
              { label: 'engram' as const, detail: 'an Engram export (JSONL with a header line)' },
              { label: 'mcp-memory' as const, detail: "the official MCP memory server's memory.jsonl" },
            ],
            { title: 'Engram: what format is this file?' },
          )
        )?.label;
      if (!from) return undefined;
      const name = vscode.workspace.asRelativePath(uri);
      const result = await engine.call('import', { text, from }).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`could not import ${name}, nothing was imported: ${reason}`);
      });
      const summary = importSummary(result);
      const message = `Engram: import of ${name} (${from}): ${summary}.`;
      // Observations that could not be memories are not silent: a warning names the first.
      const partial = result.from === 'mcp-memory' && result.rejected.length > 0;
      void (partial
        ? vscode.window.showWarningMessage(message)
        : vscode.window.showInformationMessage(message));
      return { ...result, summary };
    }),
  ];
}
