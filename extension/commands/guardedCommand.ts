import * as vscode from 'vscode';

/**
 * Registers a command as a boundary: whatever fails is logged with the command's id and shown to
 * the user as one short message, never as an unhandled rejection. The handler's result is returned
 * to programmatic callers (tests, other extensions).
 */
export function guardedCommand(
  id: string,
  log: vscode.LogOutputChannel,
  handler: (...args: unknown[]) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`${id}: ${message}`);
      void vscode.window.showErrorMessage(`Engram: ${message}`);
      return undefined;
    }
  });
}
