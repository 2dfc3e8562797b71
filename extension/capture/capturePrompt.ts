import type * as vscode from 'vscode';
import { AGENT_NAMES } from '../../engine/index';

/** The first-run prompt's answers, in the order shown. */
export const PROMPT_CHOICES = ['Enable', 'Not now', 'Never for this workspace'] as const;
export type PromptChoice = (typeof PROMPT_CHOICES)[number];

/** workspaceState: 'never', or until when (epoch ms) a 'Not now' holds. */
export const PROMPT_STATE_KEY = 'engram.capture.prompt';
const NOT_NOW_MS = 7 * 24 * 3600_000;

// How the views and the prompt name each agent.
export { AGENT_NAMES };

/**
 * Asked once per workspace: only when its agents left sessions here, capture was never switched on
 * or off for it (by this prompt, the command or the CLI), and it was not declined ('Never', or
 * 'Not now' within the last week).
 */
export function shouldAsk(
  state: vscode.Memento,
  status: { changedAt: number | null },
  agents: readonly string[],
  now: number,
): boolean {
  if (agents.length === 0 || status.changedAt !== null) return false;
  const answer = state.get<string | number>(PROMPT_STATE_KEY);
  return answer !== 'never' && !(typeof answer === 'number' && now < answer);
}

/** What is read, where it is kept, how to purge: the whole decision in one notification. */
export function promptText(agents: readonly string[]): string {
  const names = agents.map((a) => AGENT_NAMES[a] ?? a).join(', ');
  return (
    `Engram can keep what your coding agents did in this workspace (${names}): it would read their ` +
    'session logs for this folder (prompts, replies, tool calls, edits, commands), redact secrets and ' +
    "personal data, and store them in this workspace's Engram database (.engram/memory.db). Nothing " +
    'leaves this machine. To turn it off or purge what was kept: "Engram: Capture Agent Sessions".'
  );
}

/** Keeps the answer; 'Enable' is kept by the engine (capture settings in the database). */
export async function rememberAnswer(
  state: vscode.Memento,
  choice: PromptChoice,
  now: number,
): Promise<void> {
  if (choice === 'Never for this workspace') await state.update(PROMPT_STATE_KEY, 'never');
  if (choice === 'Not now') await state.update(PROMPT_STATE_KEY, now + NOT_NOW_MS);
}
