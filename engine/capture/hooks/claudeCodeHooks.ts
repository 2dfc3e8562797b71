import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { invalidInput } from '../../errors';

/** Marks Engram's own entries, so install replaces them and uninstall finds them. */
const MARK = '--from-hook';

/**
 * What each hook runs. `SessionStart`: the primed block, which Claude Code adds to the new
 * session's context (a SessionStart hook's stdout on exit 0, https://code.claude.com/docs/en/hooks).
 * `Stop`, `SessionEnd`: after Claude Code appended a turn or ended a session, read it.
 */
const EVENTS = {
  SessionStart: 'context --prime',
  Stop: 'capture run --agent claude-code',
  SessionEnd: 'capture run --agent claude-code',
} as const;

export interface HookChange {
  file: string;
  /** Hook events whose Engram entry was added, replaced or removed. */
  events: string[];
}

/**
 * Claude Code's project-local settings (`.claude/settings.local.json`, which Claude Code keeps out
 * of git): hooks there run only for this user in this workspace, like capture itself.
 */
export function claudeSettingsFile(workspace: string): string {
  return path.join(workspace, '.claude', 'settings.local.json');
}

/** The command a hook runs: this Engram's CLI, marked as Engram's own. */
export function hookCommand(cliScript: string, event: keyof typeof EVENTS): string {
  return `node ${JSON.stringify(cliScript)} ${EVENTS[event]} ${MARK}`;
}

interface HookEntry {
  matcher?: string;
  hooks?: Array<{ type?: string; command?: string }>;
}

function readSettings(file: string): { text: string; hooks: Record<string, HookEntry[]> } {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n';
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

const ours = (entry: HookEntry) => entry.hooks?.some((h) => h.command?.includes(MARK)) === true;

function write(file: string, text: string, event: string, entries: HookEntry[] | undefined): string {
  const edits = modify(text, ['hooks', event], entries, {
    formattingOptions: { insertSpaces: true, tabSize: 2 },
  });
  return applyEdits(text, edits);
}

/**
 * Adds Engram's hooks (or replaces them: installing twice leaves one), keeping every other setting
 * and hook of the file.
 */
export function installClaudeHooks(workspace: string, cliScript: string): HookChange {
  const file = claudeSettingsFile(workspace);
  const { hooks, text: before } = readSettings(file);
  let text = before;
  const events = Object.keys(EVENTS) as Array<keyof typeof EVENTS>;
  for (const event of events) {
    const others = (Array.isArray(hooks[event]) ? hooks[event] : []).filter((e) => !ours(e));
    text = write(file, text, event, [
      ...others,
      { hooks: [{ type: 'command', command: hookCommand(cliScript, event) }] },
    ]);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { file, events };
}

/** Removes Engram's hooks, and an event's list when nothing else is left in it. */
export function uninstallClaudeHooks(workspace: string): HookChange {
  const file = claudeSettingsFile(workspace);
  if (!existsSync(file)) return { file, events: [] };
  const { hooks, text: before } = readSettings(file);
  let text = before;
  const removed: string[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries) || !entries.some(ours)) continue;
    const others = entries.filter((e) => !ours(e));
    text = write(file, text, event, others.length > 0 ? others : undefined);
    removed.push(event);
  }
  if (removed.length > 0) writeFileSync(file, text);
  return { file, events: removed };
}
