import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { invalidInput } from '../../errors';

/** Marks Engram's own entries, so install replaces them and uninstall finds them. */
const MARK = '--from-hook';

/**
 * An agent whose hooks Engram installs. The three read the same shape (`hooks` -> event -> groups
 * of `{ type: 'command', command }`), each in its own file and with its own event names.
 */
interface HookClient {
  /** The settings file, relative to the workspace. */
  settings: string;
  /** Each event's Engram command (the CLI's arguments), in the order they are written. */
  events: Readonly<Record<string, string>>;
  /** What an install should tell the user beyond the file it wrote. */
  note: string;
  /**
   * Entries written flat (`event -> [{ type, command }]`, VS Code's `.github/hooks` format) rather
   * than in matcher groups (`event -> [{ hooks: [...] }]`), with these top-level keys; a file left
   * with nothing else by uninstall is Engram's own and is deleted.
   */
  flat?: { top: Readonly<Record<string, unknown>> };
}

/**
 * - Claude Code adds a SessionStart hook's stdout on exit 0 to the session's context
 *   (https://code.claude.com/docs/en/hooks); `Stop` ends each turn, `SessionEnd` the session. Its
 *   project-local settings stay out of git, so the hooks run only for this user.
 * - Gemini CLI reads a hook's stdout as JSON, and plain text only as a message to the user: the
 *   primed block goes in `hookSpecificOutput.additionalContext` (`--hook-client gemini`), and the
 *   capture after each turn (`AfterAgent`) says nothing (docs/hooks/reference.md of gemini-cli).
 * - Codex takes a SessionStart hook's plain stdout as context, like Claude Code, but fails a
 *   `Stop` hook whose stdout is not its JSON: the capture says nothing there either.
 */
export const HOOK_CLIENTS = {
  'claude-code': {
    settings: path.join('.claude', 'settings.local.json'),
    events: {
      SessionStart: 'context --prime',
      Stop: 'capture run --agent claude-code',
      SessionEnd: 'capture run --agent claude-code',
    },
    note: '',
  },
  gemini: {
    settings: path.join('.gemini', 'settings.json'),
    events: {
      SessionStart: 'context --prime --hook-client gemini',
      AfterAgent: 'capture run --agent gemini --hook-client gemini',
      SessionEnd: 'capture run --agent gemini --hook-client gemini',
    },
    note: "; this file is the project's Gemini CLI settings: keep it out of git if others share the repository",
  },
  codex: {
    settings: path.join('.codex', 'hooks.json'),
    events: {
      SessionStart: 'context --prime',
      Stop: 'capture run --agent codex --hook-client codex',
    },
    note: "; Codex runs a project's hooks only with its hooks feature on and this project trusted (Codex's hooks documentation)",
  },
  copilot: {
    settings: path.join('.github', 'hooks', 'engram.json'),
    events: {
      SessionStart: 'context --prime --hook-client copilot',
      Stop: 'capture run --agent copilot --hook-client copilot',
    },
    note:
      '; VS Code runs them in agent mode (agent hooks, in preview; chat.hookFilesLocations); the file names ' +
      "this machine's cli.js: keep it out of git if others share the repository",
    flat: { top: { version: 1 } },
  },
} as const satisfies Record<string, HookClient>;

/** Agents whose hooks live in a JSON settings file; Cline's are scripts (clineHooks.ts). */
export type SettingsHookClient = keyof typeof HOOK_CLIENTS;

export interface HookChange {
  file: string;
  /** Hook events whose Engram entry was added, replaced or removed. */
  events: string[];
}

/** The settings file an agent's hooks go in, for this workspace. */
export function hookSettingsFile(workspace: string, client: SettingsHookClient): string {
  return path.join(workspace, HOOK_CLIENTS[client].settings);
}

/** The command a hook runs: this Engram's CLI, marked as Engram's own. */
export function hookCommand(cliScript: string, client: SettingsHookClient, event: string): string {
  const args = (HOOK_CLIENTS[client].events as Record<string, string>)[event];
  if (args === undefined) throw invalidInput(`${client} has no ${event} hook of Engram's`);
  return `node ${JSON.stringify(cliScript)} ${args} ${MARK}`;
}

interface HookEntry {
  matcher?: string;
  hooks?: Array<{ type?: string; command?: string }>;
  /** A flat entry's own command (VS Code's `.github/hooks` format). */
  command?: string;
}

function readSettings(file: string, given?: string): { text: string; hooks: Record<string, HookEntry[]> } {
  const text = given ?? (existsSync(file) ? readFileSync(file, 'utf8') : '{}\n');
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0 || typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`${file} is not a JSON object: fix or remove it first`);
  }
  const hooks = (value as { hooks?: unknown }).hooks;
  return {
    text,
    hooks: typeof hooks === 'object' && hooks !== null ? (hooks as Record<string, HookEntry[]>) : {},
  };
}

const FORMAT = { insertSpaces: true, tabSize: 2 };

const ours = (entry: HookEntry) =>
  entry.command?.includes(MARK) === true || entry.hooks?.some((h) => h.command?.includes(MARK)) === true;

function write(text: string, event: string, entries: HookEntry[] | undefined): string {
  const edits = modify(text, ['hooks', event], entries, { formattingOptions: FORMAT });
  return applyEdits(text, edits);
}

/**
 * Adds Engram's hooks for an agent (or replaces them: installing twice leaves one), keeping every
 * other setting and hook of the file.
 */
export function installHooks(
  workspace: string,
  client: SettingsHookClient,
  cliScript: string,
): HookChange & { note: string } {
  const file = hookSettingsFile(workspace, client);
  const { hooks, text: before } = readSettings(file);
  const flat = (HOOK_CLIENTS[client] as HookClient).flat;
  let text = before;
  for (const [key, value] of Object.entries(flat?.top ?? {}))
    text = applyEdits(text, modify(text, [key], value, { formattingOptions: FORMAT }));
  const events = Object.keys(HOOK_CLIENTS[client].events);
  for (const event of events) {
    const others = (Array.isArray(hooks[event]) ? hooks[event] : []).filter((e) => !ours(e));
    const entry = { type: 'command', command: hookCommand(cliScript, client, event) };
    text = write(text, event, [...others, flat ? entry : { hooks: [entry] }]);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { file, events, note: HOOK_CLIENTS[client].note };
}

/** Whether a JSON object holds no keys but these (the file Engram wrote, with nothing of anyone else's). */
function onlyKeys(text: string, keys: readonly string[]): boolean {
  const value = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
  return Object.keys(value).every((k) => keys.includes(k));
}

/**
 * Removes Engram's hooks for an agent, an event's list when nothing else is left in it, and the
 * `hooks` object when no event is left.
 */
export function uninstallHooks(workspace: string, client: SettingsHookClient): HookChange {
  const file = hookSettingsFile(workspace, client);
  if (!existsSync(file)) return { file, events: [] };
  const { hooks, text: before } = readSettings(file);
  let text = before;
  const removed: string[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries) || !entries.some(ours)) continue;
    const others = entries.filter((e) => !ours(e));
    text = write(text, event, others.length > 0 ? others : undefined);
    removed.push(event);
  }
  if (removed.length > 0 && Object.keys(readSettings(file, text).hooks).length === 0) {
    text = applyEdits(text, modify(text, ['hooks'], undefined, {}));
  }
  const flat = (HOOK_CLIENTS[client] as HookClient).flat;
  if (removed.length > 0 && flat && onlyKeys(text, Object.keys(flat.top))) rmSync(file);
  else if (removed.length > 0) writeFileSync(file, text);
  return { file, events: removed };
}
