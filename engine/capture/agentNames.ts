/**
 * How VS Code's views name each agent capture reads (engine/capture/events.ts). A constant only,
 * so the Timeline webview and the extension share it without loading the engine.
 */
export const AGENT_NAMES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
  aider: 'Aider',
  copilot: 'Copilot Chat',
  cline: 'Cline',
  'roo-code': 'Roo Code',
  opencode: 'OpenCode',
};

export function agentName(agent: string): string {
  return AGENT_NAMES[agent] ?? agent;
}
