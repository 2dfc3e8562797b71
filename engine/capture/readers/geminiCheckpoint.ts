import path from 'node:path';
import type { CaptureEvent, ParsedRecord } from '../events';
import { isRecord, jsonRecord, text, unusable } from '../events';
import type { SplitResult } from '../rawRecords';
import type { CaptureFormat } from './captureFormat';
import { callEvents, resultEvent } from './geminiTools';
import { splitJsonArray } from './jsonElements';
import { emptyState, remember } from './readerState';
import type { ReaderState } from './readerState';

/**
 * Gemini CLI's saved chats, `/chat save <tag>` (`~/.gemini/tmp/<project>/checkpoint-<tag>.json`;
 * google-gemini/gemini-cli, packages/core/src/core/logger.ts, `saveCheckpoint`): the history the
 * model saw, pretty-printed, at first a bare array of `Content` `{role: user | model, parts}`,
 * later `{history: Content[], authType}` (`loadCheckpoint` reads both). A part is `{text}` (with
 * `thought: true` for the model's reasoning), `{functionCall: {id, name, args}}` or
 * `{functionResponse: {id, name, response: {output | error}}}`. No times, no session id: the
 * session is named by the project folder and the tag. Saving again under the same tag writes the
 * file anew; one record per `Content`.
 */
export const geminiCheckpointFormat: CaptureFormat = {
  agent: 'gemini',
  split: splitCheckpoint,
  rewrite: 'whole',
  initialState: (file) => {
    const tag = path
      .basename(file)
      .replace(/^checkpoint-?/, '')
      .replace(/\.json$/, '');
    const project = path.basename(path.dirname(file)).slice(0, 16);
    return emptyState(`checkpoint-${tag || 'default'}-${project}`);
  },
  parse: parseContent,
};

const splitArray = splitJsonArray();
const splitHistory = splitJsonArray('history');

/** The legacy array, or the object holding it under `history`: the first byte says which. */
function splitCheckpoint(bytes: Uint8Array, base: number): SplitResult {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = buffer
    .toString('utf8', 0, Math.min(buffer.length, 64))
    .replace(/^\uFEFF/, '')
    .trimStart()[0];
  return first === '[' ? splitArray(bytes, base) : splitHistory(bytes, base);
}

/** The context Gemini CLI sends first (folder structure, date), not something the user asked. */
const SETUP = /^This is the Gemini CLI\. We are setting up the context for our chat\./;

interface CheckpointState extends ReaderState {
  /** Calls without an id, in order: a response without an id answers the first of its name. */
  openCalls?: Array<[string, string]>;
  /** Calls without an id seen so far (names the next one). */
  calls?: number;
}

function parseContent(line: string, raw: ReaderState): ParsedRecord {
  const state = raw as CheckpointState;
  const value = jsonRecord(line);
  if (value === undefined) return unusable(line, state);
  const events: CaptureEvent[] = [];
  const done = (status: ParsedRecord['status'] = 'understood'): ParsedRecord => ({
    sessionId: state.sessionId,
    status,
    events,
  });
  if (value['role'] === undefined && value['parts'] === undefined) {
    // The head (`{...[]}`) or tail (`{authType}`) of the object shape.
    return done(
      Object.keys(value).every((k) => k === 'history' || k === 'authType') ? 'understood' : 'unknown',
    );
  }
  const role = text(value['role']);
  if ((role !== 'user' && role !== 'model') || !Array.isArray(value['parts'])) return done('unknown');
  if (state.sessionId && remember(state.seen, state.sessionId))
    events.push({ kind: 'session', agent: 'gemini' });
  const said: string[] = [];
  const thought: string[] = [];
  for (const part of value['parts'].filter(isRecord)) {
    const body = text(part['text']);
    if (body !== undefined) (part['thought'] === true ? thought : said).push(body);
    if (isRecord(part['functionCall'])) call(part['functionCall'], state, events);
    if (isRecord(part['functionResponse'])) response(part['functionResponse'], state, events);
  }
  const body = said.join('\n');
  if (body.trim() !== '' || thought.length > 0) {
    const turnRole = role === 'model' ? 'assistant' : SETUP.test(body) ? 'system' : 'user';
    events.unshift({
      kind: 'turn',
      role: turnRole,
      text: body,
      ...(thought.length > 0 ? { thinking: thought.join('\n') } : {}),
    });
  }
  return done();
}

function call(value: Record<string, unknown>, state: CheckpointState, events: CaptureEvent[]): void {
  const name = text(value['name']);
  if (!name) return;
  let callId = text(value['id']);
  if (!callId) {
    state.calls = (state.calls ?? 0) + 1;
    callId = `${name}-${state.calls}`;
    (state.openCalls ??= []).push([name, callId]);
  }
  if (remember(state.seen, `c:${callId}`))
    events.push(...callEvents(callId, name, isRecord(value['args']) ? value['args'] : {}, {}));
}

function response(value: Record<string, unknown>, state: CheckpointState, events: CaptureEvent[]): void {
  const name = text(value['name']) ?? '';
  let callId = text(value['id']);
  if (!callId) {
    const open = state.openCalls ?? [];
    const at = open.findIndex(([n]) => n === name);
    if (at === -1) return;
    callId = open[at]?.[1];
    open.splice(at, 1);
  }
  if (!callId || !remember(state.seen, `r:${callId}`)) return;
  const result = isRecord(value['response']) ? value['response'] : {};
  const error = text(result['error']);
  const output = error ?? text(result['output']) ?? JSON.stringify(result);
  events.push(resultEvent(callId, name, error === undefined, output, {}));
}
