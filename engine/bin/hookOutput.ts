import { Option } from 'commander';

/** The agents whose hooks run Engram (engine/capture/hooks/agentHooks.ts installs them). */
const HOOK_CLIENTS = ['claude-code', 'gemini', 'codex', 'cline', 'copilot'] as const;
type HookClient = (typeof HOOK_CLIENTS)[number];

/** Cline's answer that lets the task go on and changes nothing. */
const CARRY_ON = { cancel: false };

/** `--hook-client`: which agent's hook runs the command, so its output is in the form that agent reads. */
export function hookClientOption(): Option {
  return new Option('--hook-client <client>', 'the agent whose hook runs this (with --from-hook)').choices(
    HOOK_CLIENTS,
  );
}

/**
 * The primed block as a session-start hook prints it. Claude Code and Codex add plain stdout to the
 * session's context; Gemini CLI shows plain text to the user only and takes context as JSON; Cline
 * reads `{ cancel, contextModification }`.
 */
export function primedForHook(text: string, client: HookClient | undefined): string {
  if (client === 'cline')
    return JSON.stringify(text ? { cancel: false, contextModification: text } : CARRY_ON);
  // VS Code's agent hooks parse a hook's stdout as JSON, and take context the way Gemini CLI does.
  if (text.length === 0 || (client !== 'gemini' && client !== 'copilot')) return text;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
}

/**
 * What a capture hook prints after a turn: Claude Code shows it in its transcript view; Gemini CLI
 * would show it to the user as a message and Codex fails a Stop hook whose stdout is not its JSON,
 * so for them nothing; Cline gets its JSON that lets the task go on.
 */
export function captureLineForHook(line: string, client: HookClient | undefined): string {
  if (client === 'cline') return JSON.stringify(CARRY_ON);
  return client === 'gemini' || client === 'codex' || client === 'copilot' ? '' : line;
}

export type { HookClient };
