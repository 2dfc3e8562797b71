import type * as vscode from 'vscode';
import type { Logger } from '../engine/index';

/** The engine's logger, written to the Engram output channel (levels filtered by VS Code). */
export function outputLogger(channel: vscode.LogOutputChannel): Logger {
  const format = (message: string, data?: Record<string, unknown>) =>
    data ? `${message} ${JSON.stringify(data)}` : message;
  return {
    debug: (m, d) => channel.debug(format(m, d)),
    info: (m, d) => channel.info(format(m, d)),
    warn: (m, d) => channel.warn(format(m, d)),
    error: (m, d) => channel.error(format(m, d)),
  };
}
