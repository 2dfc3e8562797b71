import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';

/**
 * The token of the team server `engram.team.url` names, kept in VS Code's SecretStorage for that
 * URL. Set asks for it in a password box; callers (tests) may pass it as the argument.
 */
export function registerTeamServerCommands(services: EngramServices): vscode.Disposable[] {
  const { team, teamStatus, log } = services;
  return [
    guardedCommand('engram.setTeamToken', log, async (given?: unknown) => {
      const url = team.requireUrl();
      const token =
        typeof given === 'string'
          ? given.trim()
          : (
              await vscode.window.showInputBox({
                title: `Engram: token for the team server ${url}`,
                prompt: 'The token "engram team token add USER" printed on the server',
                password: true,
                ignoreFocusOut: true,
                validateInput: (v) => (v.trim() === '' ? 'Paste the token' : undefined),
              })
            )?.trim();
      if (!token) return undefined;
      await team.setToken(token);
      log.info(`team server token set for ${url}`);
      await teamStatus.refresh();
      return teamStatus.state;
    }),
    guardedCommand('engram.clearTeamToken', log, async () => {
      const url = await team.clearToken();
      log.info(`team server token cleared for ${url}`);
      await teamStatus.refresh();
      void vscode.window.showInformationMessage(
        `Engram: the token for ${url} is cleared; Engram uses the local database until one is set.`,
      );
      return teamStatus.state;
    }),
  ];
}
