import type { CaptureEvent, TurnRole } from '../events';
import { isRecord, text, timeOf } from '../events';
import { openCodeTouches, openCodeUsage } from './openCodeTools';

/**
 * A message of OpenCode's first storage format (mid-2025; anomalyco/opencode,
 * packages/opencode/src/session/message.ts, `Message.Info`): the parts inside the message,
 * `{id, role, parts: [text | reasoning | tool-invocation | file | step-start | source-url],
 * metadata: {time, error, tool, assistant: {modelID, path, summary, tokens}}}`. A
 * `tool-invocation` holds the call and, in state `result`, its result; the tool's times are in
 * `metadata.tool[callId]`. Later versions still read these files (their import of a shared
 * session decodes them), and their migration copied them as they were, so they can be found.
 */
export function openCodeV1Events(data: Record<string, unknown>, parts: readonly unknown[]): CaptureEvent[] {
  const metadata = isRecord(data['metadata']) ? data['metadata'] : {};
  const assistant = isRecord(metadata['assistant']) ? metadata['assistant'] : undefined;
  const at = isRecord(metadata['time']) ? timeOf(metadata['time']['created']) : undefined;
  const when = at === undefined ? {} : { at };
  const tools = isRecord(metadata['tool']) ? metadata['tool'] : {};
  const role: TurnRole =
    data['role'] === 'user' ? 'user' : assistant?.['summary'] === true ? 'summary' : 'assistant';
  const events: CaptureEvent[] = [];
  const model = text(assistant?.['modelID']);
  if (model) events.push({ kind: 'session', agent: 'opencode', model });
  for (const part of parts.filter(isRecord)) {
    const type = text(part['type']);
    const body = text(part['text']) ?? '';
    if (type === 'text' && body.trim() !== '') events.push({ kind: 'turn', role, text: body, ...when });
    if (type === 'reasoning' && body.trim() !== '')
      events.push({ kind: 'turn', role: 'assistant', text: '', thinking: body, ...when });
    if (type === 'tool-invocation' && isRecord(part['toolInvocation']))
      events.push(...invocation(part['toolInvocation'], tools, at));
  }
  const error = metadata['error'];
  if (isRecord(error)) {
    const detail = isRecord(error['data']) ? text(error['data']['message']) : undefined;
    const said = [text(error['name']), detail].filter(Boolean).join(': ');
    events.push({ kind: 'turn', role: 'system', text: said, ...when });
  }
  events.push(...openCodeUsage(assistant?.['tokens'], at));
  return events;
}

function invocation(
  call: Record<string, unknown>,
  tools: Record<string, unknown>,
  at: number | undefined,
): CaptureEvent[] {
  const callId = text(call['toolCallId']);
  const name = text(call['toolName']);
  if (!callId || !name) return [];
  const info = isRecord(tools[callId]) ? tools[callId] : {};
  const times = isRecord(info['time']) ? info['time'] : {};
  const start = timeOf(times['start']) ?? at;
  const end = timeOf(times['end']);
  const args = isRecord(call['args']) ? call['args'] : {};
  const events: CaptureEvent[] = [
    { kind: 'tool-call', callId, name, arguments: args, ...(start === undefined ? {} : { at: start }) },
    ...openCodeTouches(name, args, callId, start),
  ];
  if (call['state'] !== 'result') return events;
  // What the tool added to its metadata: a command's `exit`, when it was recorded.
  const exit = info['exit'];
  const exitCode = typeof exit === 'number' ? exit : undefined;
  events.push({
    kind: 'tool-result',
    callId,
    status: exitCode === undefined || exitCode === 0 ? 'ok' : 'error',
    output: text(call['result']) ?? '',
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(start !== undefined && end !== undefined ? { durationMs: end - start } : {}),
    ...(end === undefined ? {} : { at: end }),
  });
  return events;
}
