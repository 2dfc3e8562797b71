import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { refreshLauncher } from '../engine/index';
import { readSettings } from './settings';
import { workspaceRoot } from './workspaceRoot';
import { databasePath } from './databasePath';

export const MCP_PROVIDER_ID = 'engram.mcpServers';

/**
 * Offers the Engram MCP bridge (dist/mcp.js over stdio) to VS Code's own agents. The bridge joins
 * this window's engine as a client, so both see one database. It runs on the extension host's
 * runtime: Electron needs ELECTRON_RUN_AS_NODE for that, plain Node ignores it.
 */
/**
 * Whether the workspace's `.vscode/mcp.json` already starts Engram (Configure MCP for… wrote it for
 * teammates): then VS Code starts that one, and offering this one too would list Engram twice.
 */
async function configuredInWorkspace(root: string | undefined): Promise<boolean> {
  if (!root) return false;
  try {
    const config = parse(await readFile(path.join(root, '.vscode', 'mcp.json'), 'utf8')) as {
      servers?: Record<string, unknown>;
    };
    return config.servers?.['engram'] !== undefined;
  } catch {
    return false;
  }
}

export function registerMcpServerProvider(
  extensionPath: string,
  log: { warn(message: string): void },
): vscode.Disposable {
  // An update moved the bridge: configurations written earlier start it through the launcher.
  refreshLauncher(os.homedir(), path.join(extensionPath, 'dist', 'mcp.js')).catch((error: unknown) =>
    log.warn(`could not update the MCP launcher: ${String(error)}`),
  );
  const changed = new vscode.EventEmitter<void>();
  const settingsListener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('engram.mcp') || e.affectsConfiguration('engram.database')) changed.fire();
  });
  const workspaceConfig = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
  workspaceConfig.onDidCreate(() => changed.fire());
  workspaceConfig.onDidChange(() => changed.fire());
  workspaceConfig.onDidDelete(() => changed.fire());
  const provider = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: async () => {
      const root = workspaceRoot();
      if (await configuredInWorkspace(root)) return [];
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
  return vscode.Disposable.from(provider, settingsListener, workspaceConfig, changed);
}
