import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A stable place for agents' MCP configurations to point at: `~/.config/engram/mcp.cjs` loads
 * the bridge (dist/mcp.js) of the Engram that wrote it last. The bridge itself lives in a
 * versioned folder (`~/.vscode/extensions/engram.engram-0.1.0/dist/mcp.js`) that the next update
 * removes, and that differs per teammate, so a configuration naming it breaks on update and cannot
 * be shared. Not `~/.engram`: a folder named `.engram` marks a workspace (engine/paths.ts).
 */
export const LAUNCHER_PARTS = ['.config', 'engram', 'mcp.cjs'] as const;

export function launcherPath(home: string): string {
  return path.join(home, ...LAUNCHER_PARTS);
}

/** The launcher for configurations shared through the repository, in each client's own variables. */
export function portableLauncher(variable: '${HOME}' | '${USERPROFILE}' | '${userHome}'): string {
  return [variable, ...LAUNCHER_PARTS].join('/');
}

function launcherSource(bridgeScript: string): string {
  return (
    '// Written by Engram (the VS Code extension or `engram mcp-config --write`): starts the MCP bridge\n' +
    '// of the Engram that ran last, so MCP configurations pointing here survive its updates.\n' +
    `require(${JSON.stringify(bridgeScript)});\n`
  );
}

/** Writes (or repoints) the launcher at `bridgeScript`; returns its path. */
export function writeLauncher(home: string, bridgeScript: string): string {
  const file = launcherPath(home);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, launcherSource(bridgeScript));
  return file;
}

/**
 * Repoints an existing launcher at this Engram's bridge (an update moved it); does nothing when
 * no configuration asked for a launcher. Asynchronous: the extension calls it at activation.
 * Resolves to whether the file changed.
 */
export async function refreshLauncher(home: string, bridgeScript: string): Promise<boolean> {
  const file = launcherPath(home);
  const current = await readFile(file, 'utf8').catch(() => undefined);
  const wanted = launcherSource(bridgeScript);
  if (current === undefined || current === wanted) return false;
  await writeFile(file, wanted);
  return true;
}
