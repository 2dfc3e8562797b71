import path from 'node:path';
import type { CaptureEvent, ParsedRecord, TurnRole } from '../events';
import { count, isRecord, jsonRecord, text, timeOf, unusable } from '../events';
import { splitLines } from '../rawRecords';
import type { CaptureFormat } from './captureFormat';
import { geminiCheckpointFormat } from './geminiCheckpoint';
import { callEvents, messageText, resultEvent } from './geminiTools';
import { splitJsonArray } from './jsonElements';
import { emptyState, remember } from './readerState';
import type { ReaderState } from './readerState';

/**
 * Gemini CLI's chat recordings (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, a
 * sub-agent's in `chats/<parent session>/<id>.jsonl`; google-gemini/gemini-cli,
 * packages/core/src/services/chatRecordingService.ts): a first line `{sessionId, projectHash,
 * startTime, kind}`, then message records `{id, timestamp, type: user | gemini | info | warning |
 * error, content, thoughts, tokens, model, toolCalls}`, `{$set: {...}}` metadata updates and
 * `{$rewindTo: id}`. A message is appended again, whole, each time it changes (its tokens, its tool
 * calls' results), so each message, call and result is taken once.
 */
export const geminiLogFormat: CaptureFormat = {
  agent: 'gemini',
  split: splitLines,
  initialState(file) {
    // A sub-agent's file sits in chats/<parent session id>/.
    const dir = path.dirname(file);
    const sub = path.basename(path.dirname(dir)) === 'chats';
    return sub ? { ...emptyState(), parent: path.basename(dir) } : emptyState();
  },
  parse: parseGeminiLine,
};

/**
 * Before April 2026 (gemini-cli f744913584, "migrate chat recording to JSONL streaming") the same
 * conversation was one pretty-printed `session-<time>-<id>.json` (a sub-agent's `<id>.json`),
 * `{sessionId, projectHash, startTime, lastUpdated, messages: [...], summary, directories, kind}`,
 * written anew whole on each change (`writeConversation`, `JSON.stringify(conversation, null, 2)`).
 * Split into its head, one record per message (the messages the log format appends) and its tail.
 */
export const geminiDocumentFormat: CaptureFormat = {
  ...geminiLogFormat,
  split: splitJsonArray('messages'),
  rewrite: 'whole',
};

/** The one for a file: chat logs (`.jsonl`), older whole chats and `/chat save` checkpoints (`.json`). */
export const geminiFormat: CaptureFormat = {
  ...geminiLogFormat,
  variant: (file) =>
    !file.endsWith('.json')
      ? geminiLogFormat
      : path.basename(file).startsWith('checkpoint')
        ? geminiCheckpointFormat
        : geminiDocumentFormat,
};

const ROLES: Record<string, TurnRole> = {
  user: 'user',
  gemini: 'assistant',
  info: 'system',
  warning: 'system',
  error: 'system',
};
const DONE = new Set(['success', 'error', 'cancelled']);

function parseGeminiLine(line: string, state: ReaderState): ParsedRecord {
  const value = jsonRecord(line);
  if (value === undefined) return unusable(line, state);
  const events: CaptureEvent[] = [];
  if (
    typeof value['sessionId'] === 'string' &&
    typeof value['projectHash'] === 'string' &&
    value['id'] === undefined
  ) {
    state.sessionId = value['sessionId'];
    const at = timeOf(value['startTime']);
    events.push({
      kind: 'session',
      agent: 'gemini',
      ...(text(value['summary']) ? { title: text(value['summary']) } : {}),
      ...(state.parent ? { parentId: state.parent } : {}),
      ...(at === undefined ? {} : { at }),
    });
    return { sessionId: state.sessionId, status: 'understood', events, ...(at === undefined ? {} : { at }) };
  }
  if (isRecord(value['$set'])) {
    const summary = text(value['$set']['summary']);
    if (summary) events.push({ kind: 'session', agent: 'gemini', title: summary });
    return { sessionId: state.sessionId, status: 'understood', events };
  }
  if (typeof value['$rewindTo'] === 'string')
    return { sessionId: state.sessionId, status: 'understood', events };
  if (value['id'] === undefined && value['type'] === undefined && isDocumentTail(value)) {
    // A whole chat's fields after its messages (geminiDocumentFormat).
    const summary = text(value['summary']);
    if (summary) events.push({ kind: 'session', agent: 'gemini', title: summary });
    return { sessionId: state.sessionId, status: 'understood', events };
  }
  const id = text(value['id']);
  const role = ROLES[text(value['type']) ?? ''];
  if (id === undefined || role === undefined)
    return { sessionId: state.sessionId, status: 'unknown', events };
  const at = timeOf(value['timestamp']);
  message(value, id, role, at, state, events);
  return { sessionId: state.sessionId, status: 'understood', events, ...(at === undefined ? {} : { at }) };
}

const TAIL_FIELDS = new Set(['summary', 'directories', 'kind', 'lastUpdated', 'startTime']);

function isDocumentTail(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => TAIL_FIELDS.has(k));
}

function message(
  value: Record<string, unknown>,
  id: string,
  role: TurnRole,
  at: number | undefined,
  state: ReaderState,
  events: CaptureEvent[],
): void {
  const when = at === undefined ? {} : { at };
  const model = text(value['model']);
  if (model && state.sessionId && state.models[state.sessionId] !== model) {
    state.models[state.sessionId] = model;
    events.push({ kind: 'session', agent: 'gemini', model });
  }
  if (remember(state.seen, `m:${id}`)) {
    const body = messageText(value['content']);
    const thoughts = Array.isArray(value['thoughts'])
      ? value['thoughts']
          .filter(isRecord)
          .map((t) => [text(t['subject']), text(t['description'])].filter(Boolean).join(': '))
          .filter((t) => t !== '')
      : [];
    if (body !== '' || thoughts.length > 0) {
      events.push({
        kind: 'turn',
        role,
        text: body,
        ...(thoughts.length > 0 ? { thinking: thoughts.join('\n') } : {}),
        ...(model ? { model } : {}),
        ...when,
      });
    }
  }
  for (const call of Array.isArray(value['toolCalls']) ? value['toolCalls'].filter(isRecord) : []) {
    toolCall(call, state, events);
  }
  const tokens = value['tokens'];
  if (isRecord(tokens) && remember(state.usageIds, id)) {
    events.push({
      kind: 'usage',
      mode: 'add',
      input: count(tokens['input']),
      output: count(tokens['output']),
      cacheRead: count(tokens['cached']),
      cacheWrite: 0,
      reasoning: count(tokens['thoughts']),
      ...when,
    });
  }
}

function toolCall(call: Record<string, unknown>, state: ReaderState, events: CaptureEvent[]): void {
  const callId = text(call['id']);
  const name = text(call['name']);
  if (!callId || !name) return;
  const at = timeOf(call['timestamp']);
  const when = at === undefined ? {} : { at };
  const args = isRecord(call['args']) ? call['args'] : {};
  if (remember(state.seen, `c:${callId}`)) events.push(...callEvents(callId, name, args, when));
  const status = text(call['status']);
  if (status && DONE.has(status) && remember(state.seen, `r:${callId}`)) {
    events.push(resultEvent(callId, name, status === 'success', resultText(call), when));
  }
}

/** The output as the model saw it (functionResponse parts), else what the UI showed. */
function resultText(call: Record<string, unknown>): string {
  const parts = Array.isArray(call['result']) ? call['result'] : [];
  const texts = parts.filter(isRecord).map((p) => {
    const response = isRecord(p['functionResponse']) ? p['functionResponse']['response'] : undefined;
    if (isRecord(response))
      return text(response['output']) ?? text(response['error']) ?? JSON.stringify(response);
    return text(p['text']) ?? '';
  });
  const joined = texts.filter((t) => t !== '').join('\n');
  return joined !== '' ? joined : (text(call['resultDisplay']) ?? '');
}
