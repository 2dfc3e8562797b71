import { Option } from 'commander';

/** The agents whose hooks run Engram (engine/capture/hooks/agentHooks.ts installs them). */
const HOOK_CLIENTS = ['claude-code', 'gemini', 'codex'] as const;
type HookClient = (typeof HOOK_CLIENTS)[number];

/** `--hook-client`: which agent's hook runs the command, so its output is in the form that agent reads. */
export function hookClientOption(): Option {
  return new Option('--hook-client <client>', 'the agent whose hook runs this (with --from-hook)').choices(
    HOOK_CLIENTS,
  );
}

/**
 * The primed block as a session-start hook prints it. Claude Code and Codex add plain stdout to the
 * session's context; Gemini CLI shows plain text to the user only and takes context as JSON.
 */
export function primedForHook(text: string, client: HookClient | undefined): string {
  if (text.length === 0 || client !== 'gemini') return text;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
}

/**
 * What a capture hook prints after a turn: Claude Code shows it in its transcript view; Gemini CLI
 * would show it to the user as a message and Codex fails a Stop hook whose stdout is not its JSON,
 * so for them nothing.
 */
export function captureLineForHook(line: string, client: HookClient | undefined): string {
  return client === 'gemini' || client === 'codex' ? '' : line;
}

export type { HookClient };
