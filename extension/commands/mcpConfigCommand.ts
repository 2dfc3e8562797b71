import { execFile } from 'node:child_process';
import path from 'node:path';
import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { workspaceRoot } from '../workspaceRoot';

export const MCP_CLIENTS = [
  { id: 'claude-code', label: 'Claude Code', detail: '.mcp.json in the workspace' },
  { id: 'codex', label: 'Codex', detail: '~/.codex/config.toml' },
  { id: 'cline', label: 'Cline', detail: "Cline's MCP settings" },
  {
    id: 'vscode',
    label: 'VS Code (.vscode/mcp.json)',
    detail: 'for other VS Code windows and teammates; this window already has Engram',
  },
  { id: 'cursor', label: 'Cursor', detail: '.cursor/mcp.json in the workspace' },
] as const;

/**
 * Runs the bundled CLI's `mcp-config --write`, which edits the client's file in place (other
 * servers and comments kept). The extension host's own runtime runs it: under Electron that needs
 * ELECTRON_RUN_AS_NODE, and plain Node ignores it.
 */
function writeClientConfig(extensionPath: string, root: string, client: string): Promise<string> {
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, '--workspace', root, 'mcp-config', '--client', client, '--write'],
      { cwd: root, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(stderr.trim().split('\n')[0] || error.message));
        else resolve(stdout.trim());
      },
    );
  });
}

export function registerMcpConfigCommand(services: EngramServices): vscode.Disposable {
  return guardedCommand('engram.configureMcp', services.log, async (clientArg?: unknown) => {
    const root = workspaceRoot();
    if (!root) throw new Error('open a folder first: the MCP configuration points at its memory');
    const client =
      typeof clientArg === 'string'
        ? clientArg
        : (
            await vscode.window.showQuickPick(
              MCP_CLIENTS.map((c) => ({ ...c })),
              { title: 'Engram: Configure MCP for…' },
            )
          )?.id;
    if (!client) return undefined;
    const message = await writeClientConfig(services.extensionPath, root, client);
    services.log.info(`mcp-config ${client}: ${message}`);
    void vscode.window.showInformationMessage(`Engram: ${message}`);
    return message;
  });
}
