import path from 'node:path';
import type { CaptureEvent, FileTouchEvent, ParsedRecord, TurnRole } from '../events';
import { count, isRecord, jsonRecord, text, timeOf, unusable } from '../events';
import { splitLines } from '../rawRecords';
import type { CaptureFormat } from './captureFormat';
import { emptyState, remember, take } from './readerState';
import type { ReaderState } from './readerState';
import { structuredHunks, touchesOfCall } from './toolTouches';

/**
 * Claude Code's transcripts (`~/.claude/projects/<encoded cwd>/<session>.jsonl`, sub-agents in
 * `<session>/subagents/agent-<id>.jsonl` or, in older versions, `agent-<id>.jsonl` beside it):
 * one JSON object per line, `type` user | assistant | summary | system | file-history-snapshot |
 * queue-operation ... (docs/capture-formats.md).
 */
export const claudeCodeFormat: CaptureFormat = {
  agent: 'claude-code',
  split: splitLines,
  initialState(file) {
    const name = path.basename(file, '.jsonl');
    // A sub-agent file names no session in its name; its records do.
    return emptyState(name.startsWith('agent-') ? undefined : name);
  },
  parse: parseClaudeLine,
};

/** Lines that carry no conversation: bookkeeping of the client. */
const BOOKKEEPING = new Set(['file-history-snapshot', 'queue-operation', 'progress', 'last-prompt']);

function parseClaudeLine(line: string, state: ReaderState, json?: unknown): ParsedRecord {
  const value = json === undefined ? jsonRecord(line) : isRecord(json) ? json : undefined;
  if (value === undefined || typeof value['type'] !== 'string') return unusable(line, state);
  const at = timeOf(value['timestamp']);
  const sessionId = sessionOf(value, state);
  const base = { sessionId, ...(at === undefined ? {} : { at }) };
  const events: CaptureEvent[] = [];
  if (sessionId !== undefined) announce(value, sessionId, state, at, events);
  switch (value['type']) {
    case 'user':
      userEvents(value, state, at, events);
      break;
    case 'assistant':
      assistantEvents(value, sessionId, state, at, events);
      break;
    case 'summary': {
      const summary = text(value['summary']);
      if (summary) {
        events.push({ kind: 'session', agent: 'claude-code', title: summary });
        events.push({ kind: 'turn', role: 'summary', text: summary, ...(at === undefined ? {} : { at }) });
      }
      break;
    }
    case 'system': {
      const content = text(value['content']);
      if (content)
        events.push({ kind: 'turn', role: 'system', text: content, ...(at === undefined ? {} : { at }) });
      break;
    }
    default:
      if (!BOOKKEEPING.has(value['type'])) return { ...base, status: 'unknown', events };
  }
  return { ...base, status: 'understood', events };
}

/** A sub-agent's records are their own session, linked to the session that spawned it. */
function sessionOf(value: Record<string, unknown>, state: ReaderState): string | undefined {
  const session = text(value['sessionId']);
  if (session === undefined) return state.sessionId;
  if (value['isSidechain'] === true) {
    const agent = text(value['agentId']);
    return `${session}/${agent ? `agent-${agent}` : 'sidechain'}`;
  }
  state.sessionId ??= session;
  return session;
}

/** The session event: once per session, and again when its model changes. */
function announce(
  value: Record<string, unknown>,
  sessionId: string,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): void {
  const message = isRecord(value['message']) ? value['message'] : undefined;
  const model = text(message?.['model']);
  const newModel = model !== undefined && model !== '<synthetic>' && state.models[sessionId] !== model;
  if (newModel) state.models[sessionId] = model;
  if (!remember(state.seen, sessionId) && !newModel) return;
  const parent = sessionId.includes('/') ? sessionId.slice(0, sessionId.indexOf('/')) : undefined;
  const cwd = text(value['cwd']);
  const branch = text(value['gitBranch']);
  events.push({
    kind: 'session',
    agent: 'claude-code',
    ...(newModel ? { model } : {}),
    ...(cwd ? { cwd } : {}),
    ...(branch ? { gitBranch: branch } : {}),
    ...(parent ? { parentId: parent } : {}),
    ...(at === undefined ? {} : { at }),
  });
}

function userEvents(
  value: Record<string, unknown>,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): void {
  const message = isRecord(value['message']) ? value['message'] : {};
  const content = message['content'];
  const when = at === undefined ? {} : { at };
  const role: TurnRole =
    value['isCompactSummary'] === true ? 'summary' : value['isMeta'] === true ? 'system' : 'user';
  if (typeof content === 'string') {
    if (content.trim() !== '') events.push({ kind: 'turn', role, text: content, ...when });
    return;
  }
  if (!Array.isArray(content)) return;
  const texts: string[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    if (block['type'] === 'tool_result') {
      const callId = text(block['tool_use_id']);
      if (callId === undefined) continue;
      const output = resultText(block['content']);
      const failed = block['is_error'] === true;
      const command = take(state.commandCalls, callId);
      const exit = /^(?:Error: )?Exit code (\d+)/m.exec(output)?.[1];
      const exitCode = exit !== undefined ? Number(exit) : command ? (failed ? 1 : 0) : undefined;
      events.push({
        kind: 'tool-result',
        callId,
        status: failed ? 'error' : 'ok',
        output,
        ...(exitCode === undefined ? {} : { exitCode }),
        ...when,
      });
      const patch = patchTouch(value['toolUseResult'], callId, at);
      if (patch) events.push(patch);
    }
  }
  if (texts.length > 0) events.push({ kind: 'turn', role, text: texts.join('\n'), ...when });
}

/** An edit's hunks with their line numbers, from the structured result of Edit/Write/MultiEdit. */
function patchTouch(result: unknown, callId: string, at: number | undefined): FileTouchEvent | undefined {
  if (!isRecord(result)) return undefined;
  const file = text(result['filePath']);
  const hunks = structuredHunks(result['structuredPatch']);
  if (!file || !hunks) return undefined;
  const action = result['type'] === 'create' ? 'create' : 'edit';
  return { kind: 'file-touch', path: file, action, callId, hunks, ...(at === undefined ? {} : { at }) };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((b) => (typeof b['text'] === 'string' ? b['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function assistantEvents(
  value: Record<string, unknown>,
  sessionId: string | undefined,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): void {
  const message = isRecord(value['message']) ? value['message'] : {};
  const when = at === undefined ? {} : { at };
  const model = text(message['model']);
  const texts: string[] = [];
  const thinking: string[] = [];
  for (const block of Array.isArray(message['content']) ? message['content'] : []) {
    if (!isRecord(block)) continue;
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    if (block['type'] === 'thinking' && typeof block['thinking'] === 'string')
      thinking.push(block['thinking']);
    if (block['type'] === 'tool_use') {
      const callId = text(block['id']);
      const name = text(block['name']);
      if (!callId || !name) continue;
      events.push({ kind: 'tool-call', callId, name, arguments: block['input'] ?? null, ...when });
      const touches = touchesOfCall(name, block['input'], callId, at);
      if (touches.some((t) => t.kind === 'command')) remember(state.commandCalls, callId);
      events.push(...touches);
    }
  }
  if (typeof message['content'] === 'string') texts.push(message['content']);
  if (texts.length > 0 || thinking.length > 0) {
    events.push({
      kind: 'turn',
      role: 'assistant',
      text: texts.join('\n'),
      ...(thinking.length > 0 ? { thinking: thinking.join('\n') } : {}),
      ...(model && model !== '<synthetic>' ? { model } : {}),
      ...when,
    });
  }
  const usage = message['usage'];
  const messageId = text(message['id']) ?? text(value['requestId']);
  if (
    isRecord(usage) &&
    sessionId !== undefined &&
    (messageId === undefined || remember(state.usageIds, messageId))
  ) {
    events.push({
      kind: 'usage',
      mode: 'add',
      input: count(usage['input_tokens']),
      output: count(usage['output_tokens']),
      cacheRead: count(usage['cache_read_input_tokens']),
      cacheWrite: count(usage['cache_creation_input_tokens']),
      reasoning: 0,
      ...when,
    });
  }
}
