import path from 'node:path';
import type { CaptureEvent, ParsedRecord, TurnRole } from '../events';
import { count, isRecord, jsonRecord, partsText, text, timeOf, unusable } from '../events';
import { splitLines } from '../rawRecords';
import { patchTouches } from './applyPatch';
import type { CaptureFormat } from './captureFormat';
import { commandOutcome } from './codexOutput';
import { emptyState, remember, take } from './readerState';
import type { ReaderState } from './readerState';

/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`). Two
 * shapes (docs/capture-formats.md): the current one wraps every line as
 * `{timestamp, type: session_meta | response_item | event_msg | turn_context | compacted, payload}`;
 * the older one starts with a bare `{id, timestamp, instructions, git}` line, then bare response
 * items and `{"record_type": "state"}` markers.
 */
export const codexFormat: CaptureFormat = {
  agent: 'codex',
  split: splitLines,
  initialState(file) {
    const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(
      path.basename(file, '.jsonl'),
    );
    return emptyState(uuid?.[1]);
  },
  parse: parseCodexLine,
};

const RESPONSE_ITEMS = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);
/** Events that repeat what a response item already said, or carry nothing to keep. */
const QUIET_EVENTS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'exec_command_begin',
  'patch_apply_begin',
  'patch_apply_end',
  'turn_diff',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'web_search_begin',
  'web_search_end',
  'plan_update',
  'context_compacted',
  'entered_review_mode',
  'exited_review_mode',
]);

function parseCodexLine(line: string, state: ReaderState, json?: unknown): ParsedRecord {
  const value = json === undefined ? jsonRecord(line) : isRecord(json) ? json : undefined;
  if (value === undefined) return unusable(line, state);
  const at = timeOf(value['timestamp']);
  const events: CaptureEvent[] = [];
  const status = codexEvents(value, state, at, events);
  return { sessionId: state.sessionId, status, events, ...(at === undefined ? {} : { at }) };
}

function codexEvents(
  value: Record<string, unknown>,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): ParsedRecord['status'] {
  const type = value['type'];
  const payload = isRecord(value['payload']) ? value['payload'] : undefined;
  if (value['record_type'] === 'state') return 'understood';
  if (type === undefined && typeof value['id'] === 'string') {
    meta(value, state, at, events); // the older format's first line
    return 'understood';
  }
  if (typeof type === 'string' && RESPONSE_ITEMS.has(type) && payload === undefined) {
    return responseItem(value, state, at, events); // the older format's bare items
  }
  if (payload === undefined) return 'unknown';
  switch (type) {
    case 'session_meta':
      meta(payload, state, at, events);
      return 'understood';
    case 'turn_context': {
      const model = text(payload['model']);
      const cwd = text(payload['cwd']);
      if (model && state.sessionId && state.models[state.sessionId] !== model) {
        state.models[state.sessionId] = model;
        events.push({ kind: 'session', agent: 'codex', model, ...(cwd && !state.cwd ? { cwd } : {}) });
      }
      return 'understood';
    }
    case 'response_item':
      return responseItem(payload, state, at, events);
    case 'compacted': {
      const message = text(payload['message']);
      if (message) events.push({ kind: 'turn', role: 'summary', text: message, ...when(at) });
      return 'understood';
    }
    case 'event_msg':
      return eventMessage(payload, state, at, events);
    default:
      return 'unknown';
  }
}

const when = (at: number | undefined) => (at === undefined ? {} : { at });

function meta(
  m: Record<string, unknown>,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): void {
  const id = text(m['id']);
  if (id) state.sessionId = id;
  const git = isRecord(m['git']) ? m['git'] : {};
  const cwd = text(m['cwd']);
  if (cwd) state.cwd = cwd;
  const started = timeOf(m['timestamp']) ?? at;
  const source = isRecord(m['source']) ? m['source'] : undefined;
  const parent = text(m['forked_from_id']) ?? parentThread(source);
  if (state.sessionId) remember(state.seen, state.sessionId);
  events.push({
    kind: 'session',
    agent: 'codex',
    ...(cwd ? { cwd } : {}),
    ...(text(git['branch']) ? { gitBranch: text(git['branch']) } : {}),
    ...(text(git['commit_hash']) ? { gitCommit: text(git['commit_hash']) } : {}),
    ...(parent ? { parentId: parent } : {}),
    ...when(started),
  });
}

function parentThread(source: Record<string, unknown> | undefined): string | undefined {
  const subagent = source?.['subagent'];
  const spawn =
    isRecord(subagent) && isRecord(subagent['thread_spawn']) ? subagent['thread_spawn'] : undefined;
  return text(spawn?.['parent_thread_id']);
}

/** Context the CLI injects as user messages: instructions files and the environment block. */
const INJECTED = /^\s*(?:<environment_context>|<user_instructions>|# AGENTS\.md instructions|<turn_aborted>)/;

function responseItem(
  item: Record<string, unknown>,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): ParsedRecord['status'] {
  switch (item['type']) {
    case 'message': {
      const role = text(item['role']);
      const body = partsText(item['content']);
      if (body === '') return 'understood';
      const injected = INJECTED.test(body) || role === 'developer' || role === 'system';
      if (injected) noteCwd(body, state, events);
      const turnRole: TurnRole = injected ? 'system' : role === 'assistant' ? 'assistant' : 'user';
      events.push({ kind: 'turn', role: turnRole, text: body, ...when(at) });
      return 'understood';
    }
    case 'reasoning': {
      const summary = Array.isArray(item['summary']) ? partsText(item['summary']) : '';
      const content = Array.isArray(item['content']) ? partsText(item['content']) : '';
      const thinking = [summary, content].filter((t) => t !== '').join('\n');
      if (thinking !== '') events.push({ kind: 'turn', role: 'assistant', text: '', thinking, ...when(at) });
      return 'understood';
    }
    case 'function_call':
    case 'custom_tool_call':
      toolCall(item, state, at, events);
      return 'understood';
    case 'local_shell_call': {
      const callId = text(item['call_id']) ?? text(item['id']);
      const action = isRecord(item['action']) ? item['action'] : {};
      const command = commandText(action['command']);
      if (!callId) return 'understood';
      events.push({ kind: 'tool-call', callId, name: 'local_shell', arguments: action, ...when(at) });
      if (command) {
        remember(state.commandCalls, callId);
        events.push({ kind: 'command', command, callId, ...when(at) });
      }
      return 'understood';
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const callId = text(item['call_id']);
      if (!callId) return 'understood';
      const command = take(state.commandCalls, callId);
      events.push({ kind: 'tool-result', callId, ...commandOutcome(item['output'], command), ...when(at) });
      return 'understood';
    }
    // The harness's git snapshot for `/undo`, and a compaction's encrypted summary: nothing readable.
    case 'web_search_call':
    case 'ghost_snapshot':
    case 'compaction':
    case 'compaction_summary':
      return 'understood';
    default:
      return 'unknown';
  }
}

function toolCall(
  item: Record<string, unknown>,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): void {
  const callId = text(item['call_id']) ?? text(item['id']);
  const name = text(item['name']);
  if (!callId || !name) return;
  const raw = item['type'] === 'custom_tool_call' ? item['input'] : item['arguments'];
  const args = parseArguments(raw);
  events.push({ kind: 'tool-call', callId, name, arguments: args, ...when(at) });
  const patch =
    name === 'apply_patch'
      ? typeof args === 'string'
        ? args
        : isRecord(args)
          ? (text(args['input']) ?? text(args['patch']))
          : undefined
      : undefined;
  if (patch !== undefined) {
    events.push(...patchTouches(patch, callId, at));
    return;
  }
  const command = isRecord(args) ? (commandText(args['command']) ?? text(args['cmd'])) : undefined;
  if (command) {
    // `shell` runs `bash -lc "<script>"`; an apply_patch through the shell is still an edit.
    const heredoc = /\*\*\* Begin Patch[\s\S]*?\*\*\* End Patch/.exec(command);
    if (heredoc) events.push(...patchTouches(heredoc[0], callId, at));
    remember(state.commandCalls, callId);
    events.push({ kind: 'command', command, callId, ...when(at) });
  }
}

/** `["bash", "-lc", "npm test"]` is the command `npm test`; other argument lists are joined. */
function commandText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
  const parts = value;
  if (
    parts.length === 3 &&
    /(?:^|\/)(?:ba|z)?sh$/.test(parts[0] as string) &&
    /^-l?c$/.test(parts[1] as string)
  ) {
    return parts[2];
  }
  return parts.join(' ');
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** The older format names the working directory only in the injected environment block. */
function noteCwd(body: string, state: ReaderState, events: CaptureEvent[]): void {
  const cwd = /<cwd>([^<]+)<\/cwd>/.exec(body)?.[1]?.trim();
  if (!cwd || state.cwd) return;
  state.cwd = cwd;
  events.push({ kind: 'session', agent: 'codex', cwd });
}

function eventMessage(
  payload: Record<string, unknown>,
  state: ReaderState,
  at: number | undefined,
  events: CaptureEvent[],
): ParsedRecord['status'] {
  const type = text(payload['type']);
  if (type === 'token_count') {
    const info = isRecord(payload['info']) ? payload['info'] : undefined;
    const total = isRecord(info?.['total_token_usage']) ? info['total_token_usage'] : undefined;
    if (total) {
      events.push({
        kind: 'usage',
        mode: 'total',
        input: count(total['input_tokens']),
        output: count(total['output_tokens']),
        cacheRead: count(total['cached_input_tokens']),
        cacheWrite: 0,
        reasoning: count(total['reasoning_output_tokens']),
        ...when(at),
      });
    }
    return 'understood';
  }
  if (type === 'exec_command_end') {
    const callId = text(payload['call_id']);
    const exitCode = payload['exit_code'];
    if (callId && typeof exitCode === 'number') {
      take(state.commandCalls, callId);
      events.push({
        kind: 'tool-result',
        callId,
        status: exitCode === 0 ? 'ok' : 'error',
        exitCode,
        ...durationOf(payload['duration']),
        ...when(at),
      });
    }
    return 'understood';
  }
  if (type === 'turn_aborted') {
    // The user interrupted the turn (or it was replaced): what the agent did next was not asked for.
    const reason = text(payload['reason']);
    events.push({
      kind: 'turn',
      role: 'system',
      text: `Turn aborted${reason ? ` (${reason})` : ''}`,
      ...when(at),
    });
    return 'understood';
  }
  if (type === 'error' || type === 'stream_error') {
    const message = text(payload['message']);
    if (message) events.push({ kind: 'turn', role: 'system', text: message, ...when(at) });
    return 'understood';
  }
  return type !== undefined && QUIET_EVENTS.has(type) ? 'understood' : 'unknown';
}

/** `{secs, nanos}` (Rust's Duration) or a number of seconds. */
function durationOf(value: unknown): { durationMs?: number } {
  if (typeof value === 'number') return { durationMs: Math.round(value * 1000) };
  if (isRecord(value))
    return { durationMs: Math.round(count(value['secs']) * 1000 + count(value['nanos']) / 1e6) };
  return {};
}
