import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { invalidInput } from '../../errors';
import type { HookChange } from './agentHooks';

/** Marks Engram's own scripts, so install replaces them and uninstall finds them. */
const MARK = '--from-hook';
const HEADER = "# Engram's hook: `engram hooks uninstall --client cline` removes it.";

/**
 * Cline runs an executable named after the hook in the workspace's `.clinerules/hooks/` (no
 * extension), with the event's JSON on stdin, and reads `{ cancel, contextModification }` from its
 * stdout (docs.cline.bot, "Hook Reference"). TaskStart primes the task; TaskComplete and TaskCancel
 * read what the task wrote.
 */
const SCRIPTS = {
  TaskStart: 'context --prime --hook-client cline',
  TaskComplete: 'capture run --agent cline --hook-client cline',
  TaskCancel: 'capture run --agent cline --hook-client cline',
} as const;

export function clineHooksDirectory(workspace: string): string {
  return path.join(workspace, '.clinerules', 'hooks');
}

function script(cliScript: string, args: string): string {
  return `#!/bin/sh\n${HEADER}\nexec node ${JSON.stringify(cliScript)} ${args} ${MARK}\n`;
}

const isOurs = (file: string) => existsSync(file) && readFileSync(file, 'utf8').includes(HEADER);

/**
 * Writes Engram's hook scripts (or replaces Engram's: installing twice leaves one). A script of the
 * same name that is not Engram's is the user's own: nothing is written, and the error names it.
 */
export function installClineHooks(workspace: string, cliScript: string): HookChange {
  const dir = clineHooksDirectory(workspace);
  const events = Object.keys(SCRIPTS) as Array<keyof typeof SCRIPTS>;
  const theirs = events.map((e) => path.join(dir, e)).filter((f) => existsSync(f) && !isOurs(f));
  if (theirs.length > 0) {
    throw invalidInput(`${theirs.join(', ')} is not Engram's hook: merge it by hand or move it first`);
  }
  mkdirSync(dir, { recursive: true });
  for (const event of events) {
    const file = path.join(dir, event);
    writeFileSync(file, script(cliScript, SCRIPTS[event]));
    chmodSync(file, 0o755);
  }
  return { file: dir, events };
}

/** Removes Engram's hook scripts; the user's own are left. */
export function uninstallClineHooks(workspace: string): HookChange {
  const dir = clineHooksDirectory(workspace);
  const removed = Object.keys(SCRIPTS).filter((event) => isOurs(path.join(dir, event)));
  for (const event of removed) rmSync(path.join(dir, event));
  return { file: dir, events: removed };
}
