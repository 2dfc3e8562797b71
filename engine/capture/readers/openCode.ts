import type { CaptureEvent, ParsedRecord, TurnRole } from '../events';
import { count, isRecord, jsonRecord, text, timeOf, unusable } from '../events';
import { splitLines } from '../rawRecords';
import type { CaptureFormat } from './captureFormat';
import { openCodeTouches, openCodeUsage } from './openCodeTools';
import { openCodeV1Events } from './openCodeV1';
import { emptyState } from './readerState';
import type { ReaderState } from './readerState';

/**
 * OpenCode's sessions (anomalyco/opencode, formerly sst/opencode): a session row, its message
 * rows and each message's part rows, kept in a SQLite database since 1.2 and as one JSON file
 * per row before (capture/openCode/ reads both). Each row becomes one ledger record, a JSON
 * envelope (openCodeRecords.ts): `{type: session, id, directory, title, parentID, time}`,
 * `{type: message, id, sessionID, data}` or `{type: part, id, sessionID, messageID, role,
 * summary, at, data}`, `data` being the row as OpenCode wrote it (packages/opencode/src/session/
 * message-v2.ts: a message's `{role, time, modelID, providerID, path, tokens, error, summary}`,
 * a part's `{type: text | reasoning | tool | step-start | step-finish | patch | file | snapshot |
 * agent | subtask | compaction | retry, ...}`). A part carries its message's role, so each
 * record reads alone. Only finished rows are stored, once each, so nothing is taken twice.
 */
export const openCodeFormat: CaptureFormat = {
  agent: 'opencode',
  split: splitLines,
  // A source is one session: `<database>#<session id>` or the session's JSON file.
  initialState: (file) => emptyState(/(ses_[A-Za-z0-9]+)(?:\.json)?$/.exec(file)?.[1]),
  parse: parseOpenCodeRecord,
};

/** Part types that say nothing to keep: step boundaries, snapshots' hashes, an agent's mention. */
const QUIET_PARTS = new Set(['step-start', 'snapshot', 'agent', 'compaction']);

function parseOpenCodeRecord(line: string, state: ReaderState): ParsedRecord {
  const record = jsonRecord(line);
  if (record === undefined) return unusable(line, state);
  const id = text(record['id']);
  if (id === undefined) return { sessionId: state.sessionId, status: 'unknown', events: [] };
  switch (record['type']) {
    case 'session':
      return sessionRecord(record, id, state);
    case 'message':
      return messageRecord(record, state);
    case 'part':
      return partRecord(record, state);
    default:
      return { sessionId: state.sessionId, status: 'unknown', events: [] };
  }
}

function sessionRecord(record: Record<string, unknown>, id: string, state: ReaderState): ParsedRecord {
  state.sessionId = id;
  const at = isRecord(record['time']) ? timeOf(record['time']['created']) : undefined;
  const optional = (key: string, value: string | undefined) => (value ? { [key]: value } : {});
  const events: CaptureEvent[] = [
    {
      kind: 'session',
      agent: 'opencode',
      ...optional('cwd', text(record['directory'])),
      ...optional('title', text(record['title'])),
      ...optional('parentId', text(record['parentID'])),
      ...(at === undefined ? {} : { at }),
    },
  ];
  return { sessionId: id, status: 'understood', events, ...(at === undefined ? {} : { at }) };
}

function messageRecord(record: Record<string, unknown>, state: ReaderState): ParsedRecord {
  const sessionId = text(record['sessionID']) ?? state.sessionId;
  const data = record['data'];
  if (!isRecord(data) || (data['role'] !== 'user' && data['role'] !== 'assistant'))
    return { sessionId, status: 'unknown', events: [] };
  if (Array.isArray(data['parts'])) {
    // The first format: the parts are inside the message.
    const events = openCodeV1Events(data, data['parts']).filter(
      (e) => e.kind !== 'session' || newModel(e.model, sessionId, state),
    );
    const first = events.find((e) => e.at !== undefined)?.at;
    return { sessionId, status: 'understood', events, ...(first === undefined ? {} : { at: first }) };
  }
  const at = isRecord(data['time']) ? timeOf(data['time']['created']) : undefined;
  const when = at === undefined ? {} : { at };
  const events: CaptureEvent[] = [];
  // The user's message names the model asked for; the assistant's the one that answered.
  const model =
    text(data['modelID']) ?? (isRecord(data['model']) ? text(data['model']['modelID']) : undefined);
  if (newModel(model, sessionId, state)) events.push({ kind: 'session', agent: 'opencode', model });
  const error = data['error'];
  if (isRecord(error)) {
    const detail = isRecord(error['data']) ? text(error['data']['message']) : undefined;
    events.push({
      kind: 'turn',
      role: 'system',
      text: [text(error['name']), detail].filter(Boolean).join(': '),
      ...when,
    });
  }
  return { sessionId, status: 'understood', events, ...when };
}

/** Whether `model` differs from the session's last (and notes it): a session event only on a change. */
function newModel(model: string | undefined, sessionId: string | undefined, state: ReaderState): boolean {
  if (!model || !sessionId || state.models[sessionId] === model) return false;
  state.models[sessionId] = model;
  return true;
}

function partRecord(record: Record<string, unknown>, state: ReaderState): ParsedRecord {
  const sessionId = text(record['sessionID']) ?? state.sessionId;
  const data = record['data'];
  const type = isRecord(data) ? text(data['type']) : undefined;
  if (!isRecord(data) || type === undefined) return { sessionId, status: 'unknown', events: [] };
  // Text and reasoning have their own times, a tool its state's, the rest their message's.
  const times = isRecord(data['time'])
    ? data['time']
    : isRecord(data['state'])
      ? data['state']['time']
      : undefined;
  const partTime = isRecord(times) ? timeOf(times['start']) : undefined;
  const at = partTime ?? timeOf(record['at']);
  const when = at === undefined ? {} : { at };
  const result = (events: CaptureEvent[], status: ParsedRecord['status'] = 'understood'): ParsedRecord => ({
    sessionId,
    status,
    events,
    ...when,
  });
  const role = record['role'] === 'user' ? 'user' : 'assistant';
  const body = text(data['text']) ?? '';
  switch (type) {
    case 'text': {
      if (data['ignored'] === true || body.trim() === '') return result([]);
      // Text OpenCode adds to the user's message (a file it read for an @mention) is context.
      const turnRole: TurnRole =
        role === 'user'
          ? data['synthetic'] === true
            ? 'system'
            : 'user'
          : record['summary'] === true
            ? 'summary'
            : 'assistant';
      return result([{ kind: 'turn', role: turnRole, text: body, ...when }]);
    }
    case 'reasoning':
      return result(
        body.trim() === '' ? [] : [{ kind: 'turn', role: 'assistant', text: '', thinking: body, ...when }],
      );
    case 'tool':
      return result(toolEvents(data, text(record['id']) as string, at));
    case 'step-finish':
      return result(openCodeUsage(data['tokens'], at));
    case 'patch': {
      const files = Array.isArray(data['files'])
        ? data['files'].filter((f): f is string => typeof f === 'string')
        : [];
      return result(files.map((path) => ({ kind: 'file-touch', path, action: 'edit', ...when })));
    }
    case 'file':
      return result(attachedFile(data, at));
    case 'subtask': {
      const callId = text(record['id']) as string;
      const args = { agent: data['agent'], description: data['description'], prompt: data['prompt'] };
      return result([{ kind: 'tool-call', callId, name: 'subtask', arguments: args, ...when }]);
    }
    case 'retry': {
      const error =
        isRecord(data['error']) && isRecord(data['error']['data'])
          ? text(data['error']['data']['message'])
          : undefined;
      return result([
        {
          kind: 'turn',
          role: 'system',
          text: `retry ${count(data['attempt'])}: ${error ?? 'error'}`,
          ...when,
        },
      ]);
    }
    default:
      return result([], QUIET_PARTS.has(type) ? 'understood' : 'unknown');
  }
}

/** A tool part holds the call and, once it finished, its result (OpenCode's `state`). */
function toolEvents(data: Record<string, unknown>, partId: string, at: number | undefined): CaptureEvent[] {
  const name = text(data['tool']);
  const callId = text(data['callID']) ?? partId;
  const toolState = data['state'];
  if (!name || !isRecord(toolState)) return [];
  const when = at === undefined ? {} : { at };
  const input = isRecord(toolState['input']) ? toolState['input'] : {};
  const events: CaptureEvent[] = [{ kind: 'tool-call', callId, name, arguments: input, ...when }];
  events.push(...openCodeTouches(name, input, callId, at));
  const status = toolState['status'];
  if (status !== 'completed' && status !== 'error') return events;
  const metadata = isRecord(toolState['metadata']) ? toolState['metadata'] : {};
  const exit = metadata['exit'];
  const exitCode = typeof exit === 'number' ? exit : name === 'bash' && status === 'error' ? 1 : undefined;
  const times = isRecord(toolState['time']) ? toolState['time'] : {};
  const start = timeOf(times['start']);
  const end = timeOf(times['end']);
  events.push({
    kind: 'tool-result',
    callId,
    status: status === 'completed' && (exitCode === undefined || exitCode === 0) ? 'ok' : 'error',
    output: text(toolState['output']) ?? text(toolState['error']) ?? '',
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(start !== undefined && end !== undefined ? { durationMs: end - start } : {}),
    ...(end === undefined ? when : { at: end }),
  });
  return events;
}

/** A file the user attached (`@path`): read into the conversation. */
function attachedFile(data: Record<string, unknown>, at: number | undefined): CaptureEvent[] {
  const source = isRecord(data['source']) ? text(data['source']['path']) : undefined;
  const url = text(data['url']);
  const path =
    source ?? (url?.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : undefined);
  return path ? [{ kind: 'file-touch', path, action: 'read', ...(at === undefined ? {} : { at }) }] : [];
}
