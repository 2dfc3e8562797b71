import type { CaptureEvent } from '../events';
import { isRecord, partsText, text } from '../events';
import { replacementHunk } from './toolTouches';

// What Gemini CLI's chat logs, whole chats and checkpoints share: its tools and its parts.

/** A tool call and what it did: files read, written and edited (with the hunk), a command run. */
export function callEvents(
  callId: string,
  name: string,
  args: Record<string, unknown>,
  when: { at?: number },
): CaptureEvent[] {
  const events: CaptureEvent[] = [{ kind: 'tool-call', callId, name, arguments: args, ...when }];
  const file = text(args['file_path']) ?? text(args['absolute_path']) ?? text(args['path']);
  if (name === 'read_file' && file)
    events.push({ kind: 'file-touch', path: file, action: 'read', callId, ...when });
  if (name === 'write_file' && file)
    events.push({ kind: 'file-touch', path: file, action: 'create', callId, ...when });
  if (name === 'replace' && file) {
    const hunk = replacementHunk(text(args['old_string']) ?? '', text(args['new_string']) ?? '');
    events.push({ kind: 'file-touch', path: file, action: 'edit', callId, hunks: [hunk], ...when });
  }
  const command = name === 'run_shell_command' ? text(args['command']) : undefined;
  if (command) events.push({ kind: 'command', command, callId, ...when });
  return events;
}

/** A call's result: an error when the tool failed or a command's `Exit Code:` is not 0. */
export function resultEvent(
  callId: string,
  name: string,
  succeeded: boolean,
  output: string,
  when: { at?: number },
): CaptureEvent {
  const exit = /Exit Code: (-?\d+)/.exec(output)?.[1];
  const exitCode =
    exit !== undefined ? Number(exit) : name === 'run_shell_command' ? (succeeded ? 0 : 1) : undefined;
  return {
    kind: 'tool-result',
    callId,
    status: succeeded && (exitCode === undefined || exitCode === 0) ? 'ok' : 'error',
    output,
    ...(exitCode === undefined ? {} : { exitCode }),
    ...when,
  };
}

/** The text of a message's content: a string, one part, or a list of parts. */
export function messageText(content: unknown): string {
  return isRecord(content) ? (text(content['text']) ?? '') : partsText(content);
}
