import path from 'node:path';
import * as vscode from 'vscode';
import { readSettings } from './settings';
import { workspaceRoot } from './workspaceRoot';
import { databasePath } from './databasePath';

export const MCP_PROVIDER_ID = 'engram.mcpServers';

/**
 * Offers the Engram MCP bridge (dist/mcp.js over stdio) to VS Code's own agents. The bridge joins
 * this window's engine as a client, so both see one database. It runs on the extension host's
 * runtime: Electron needs ELECTRON_RUN_AS_NODE for that, plain Node ignores it.
 */
export function registerMcpServerProvider(extensionPath: string): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const settingsListener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('engram.mcp') || e.affectsConfiguration('engram.database')) changed.fire();
  });
  const provider = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const root = workspaceRoot();
      const settings = readSettings();
      const args = [path.join(extensionPath, 'dist', 'mcp.js'), '--profile', settings.mcpToolProfile];
      if (root) args.push('--workspace', root);
      // The same database this window opened, whatever the setting says.
      if (settings.databaseLocation || !root) args.push('--db', databasePath(settings, root));
      return [
        new vscode.McpStdioServerDefinition(
          'Engram',
          process.execPath,
          args,
          { ELECTRON_RUN_AS_NODE: '1' },
          '0.1.0',
        ),
      ];
    },
  });
  return vscode.Disposable.from(provider, settingsListener, changed);
}
