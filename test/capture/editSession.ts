import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ingestSource } from '../../engine/capture/ingest';
import type { MemoryStore } from '../../engine/memory/memoryStore';

export type SessionStep =
  | { user: string }
  | { edit: string; old: string; new: string }
  | { write: string; content: string }
  | { bash: string; exit: number };

/**
 * A Claude Code transcript (written for tests, never a real session) of a session in `cwd` on
 * `branch`: user turns, Edit and Write calls with their results, Bash calls with their exit.
 */
export function claudeEditSession(
  id: string,
  cwd: string,
  branch: string,
  start: number,
  steps: readonly SessionStep[],
): string {
  let t = start;
  const lines: string[] = [];
  const record = (type: 'user' | 'assistant', content: unknown) =>
    lines.push(
      JSON.stringify({
        type,
        sessionId: id,
        cwd,
        gitBranch: branch,
        timestamp: new Date((t += 1000)).toISOString(),
        message: { role: type, content },
      }),
    );
  steps.forEach((step, i) => {
    if ('user' in step) {
      record('user', step.user);
      return;
    }
    const call = `toolu_${i}`;
    const [name, input] =
      'edit' in step
        ? ['Edit', { file_path: path.join(cwd, step.edit), old_string: step.old, new_string: step.new }]
        : 'write' in step
          ? ['Write', { file_path: path.join(cwd, step.write), content: step.content }]
          : ['Bash', { command: step.bash }];
    record('assistant', [{ type: 'tool_use', id: call, name, input }]);
    const failed = 'bash' in step && step.exit !== 0;
    record('user', [
      {
        type: 'tool_result',
        tool_use_id: call,
        is_error: failed,
        content: failed ? `Exit code ${(step as { exit: number }).exit}\nFAIL` : 'ok',
      },
    ]);
  });
  return lines.join('\n') + '\n';
}

/** Writes the session into `dir` and ingests it for the workspace `root`. */
export async function ingestEditSession(
  store: MemoryStore,
  dir: string,
  root: string,
  id: string,
  text: string,
): Promise<void> {
  const file = path.join(dir, `${id}.jsonl`);
  writeFileSync(file, text);
  await ingestSource(store, { agent: 'claude-code', path: file }, { root });
}
