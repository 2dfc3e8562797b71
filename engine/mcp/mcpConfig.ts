import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { invalidInput } from '../errors';
import { launcherPath, portableLauncher, writeLauncher } from './mcpLauncher';

export const MCP_CLIENTS = ['claude-code', 'codex', 'cline', 'vscode', 'cursor'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export interface McpConfigContext {
  workspace: string;
  /** Absolute path of dist/mcp.js: where the launcher points. */
  bridgeScript: string;
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

export interface McpConfig {
  client: McpClient;
  /** The file the client reads its MCP servers from. */
  file: string;
  /** The entry for Engram, as it appears in that file. */
  snippet: string;
  /** Adds (or replaces) the Engram entry in the file, keeping every other entry. */
  write(): void;
}

/** Where a VS Code extension keeps its global storage (Cline's settings live there). */
function vscodeGlobalStorage(context: McpConfigContext): string {
  const user =
    context.platform === 'win32'
      ? path.join(context.env['APPDATA'] ?? path.join(context.home, 'AppData', 'Roaming'), 'Code', 'User')
      : context.platform === 'darwin'
        ? path.join(context.home, 'Library', 'Application Support', 'Code', 'User')
        : path.join(context.env['XDG_CONFIG_HOME'] || path.join(context.home, '.config'), 'Code', 'User');
  return path.join(user, 'globalStorage');
}

/**
 * The configuration each client needs to start Engram's MCP bridge over stdio, through the launcher
 * (engine/mcp/mcpLauncher.ts), never the versioned path of one installation. Files in the workspace
 * (Claude Code's `.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`) are shared with teammates, so
 * they hold no absolute path: the launcher in the client's home variable, and the workspace from the
 * client (Claude Code starts servers in the project; the bridge finds its root from there).
 */
export function mcpConfig(client: string, context: McpConfigContext): McpConfig {
  if (!(MCP_CLIENTS as readonly string[]).includes(client))
    throw invalidInput(`--client must be one of ${MCP_CLIENTS.join(', ')}; got "${client}"`);
  const command = 'node';
  // User-level files (Codex, Cline) are this user's own: absolute paths are right there.
  const args = [launcherPath(context.home), '--workspace', context.workspace];
  const home = context.platform === 'win32' ? '${USERPROFILE}' : '${HOME}';
  const editorArgs = [portableLauncher('${userHome}'), '--workspace', '${workspaceFolder}'];
  const json = (file: string, key: string, entry: Record<string, unknown>): McpConfig => ({
    client: client as McpClient,
    file,
    snippet: JSON.stringify({ [key]: { engram: entry } }, null, 2),
    write: () => {
      writeLauncher(context.home, context.bridgeScript);
      writeJsonEntry(file, [key, 'engram'], entry);
    },
  });
  switch (client as McpClient) {
    case 'claude-code':
      return json(path.join(context.workspace, '.mcp.json'), 'mcpServers', {
        type: 'stdio',
        command,
        args: [portableLauncher(home)],
      });
    case 'cursor':
      return json(path.join(context.workspace, '.cursor', 'mcp.json'), 'mcpServers', {
        command,
        args: editorArgs,
      });
    case 'vscode':
      return json(path.join(context.workspace, '.vscode', 'mcp.json'), 'servers', {
        type: 'stdio',
        command,
        args: editorArgs,
      });
    case 'cline':
      return json(
        path.join(
          vscodeGlobalStorage(context),
          'saoudrizwan.claude-dev',
          'settings',
          'cline_mcp_settings.json',
        ),
        'mcpServers',
        { command, args, disabled: false },
      );
    case 'codex': {
      const file = path.join(context.env['CODEX_HOME'] || path.join(context.home, '.codex'), 'config.toml');
      const entry = { command, args };
      return {
        client: 'codex',
        file,
        snippet: stringifyToml({ mcp_servers: { engram: entry } }),
        write: () => {
          writeLauncher(context.home, context.bridgeScript);
          writeTomlEntry(file, entry);
        },
      };
    }
  }
}

/** Edits the JSON (or JSONC: VS Code's files have comments) in place, so other servers and comments stay. */
function writeJsonEntry(file: string, jsonPath: string[], entry: Record<string, unknown>): void {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n';
  const edits = modify(before, jsonPath, entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, applyEdits(before, edits));
}

function writeTomlEntry(file: string, entry: Record<string, unknown>): void {
  const before = existsSync(file) ? parseToml(readFileSync(file, 'utf8')) : {};
  const servers = (before['mcp_servers'] ?? {}) as Record<string, unknown>;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, stringifyToml({ ...before, mcp_servers: { ...servers, engram: entry } }));
}
