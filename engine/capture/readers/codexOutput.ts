import { isRecord, text } from '../events';

export interface CommandOutcome {
  status: 'ok' | 'error';
  output?: string;
  exitCode?: number;
  durationMs?: number;
}

/**
 * A Codex tool output, in the shapes the CLI has written: a JSON string
 * `{"output": ..., "metadata": {"exit_code", "duration_seconds"}}`, the text form
 * `Exit code: N\nWall time: S seconds\nOutput:\n...`, `{content, success}`, or plain text.
 * `command`: the call ran a command, so a missing exit code of a successful output is 0.
 */
export function commandOutcome(raw: unknown, command: boolean): CommandOutcome {
  if (isRecord(raw)) {
    const content = text(raw['content']) ?? '';
    const failed = raw['success'] === false;
    return { ...commandOutcome(content, command), ...(failed ? { status: 'error' } : {}) };
  }
  const body = typeof raw === 'string' ? raw : '';
  const json = parseObject(body);
  if (json) {
    const metadata = isRecord(json['metadata']) ? json['metadata'] : {};
    const exit = metadata['exit_code'];
    const seconds = metadata['duration_seconds'];
    const output = text(json['output']) ?? body;
    return outcome(
      output,
      typeof exit === 'number' ? exit : undefined,
      typeof seconds === 'number' ? seconds : undefined,
      command,
    );
  }
  const exit = /^(?:Exit code|Process exited with code):? (-?\d+)/m.exec(body)?.[1];
  const seconds = /^Wall time: ([\d.]+) seconds/m.exec(body)?.[1];
  const output = /^Output:\n([\s\S]*)$/m.exec(body)?.[1] ?? body;
  return outcome(
    output,
    exit === undefined ? undefined : Number(exit),
    seconds === undefined ? undefined : Number(seconds),
    command,
  );
}

function outcome(
  output: string,
  exit: number | undefined,
  seconds: number | undefined,
  command: boolean,
): CommandOutcome {
  const exitCode = exit ?? (command ? 0 : undefined);
  return {
    status: exitCode !== undefined && exitCode !== 0 ? 'error' : 'ok',
    output,
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(seconds === undefined ? {} : { durationMs: Math.round(seconds * 1000) }),
  };
}

function parseObject(body: string): Record<string, unknown> | undefined {
  if (!body.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(body) as unknown;
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
