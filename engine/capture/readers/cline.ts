import path from 'node:path';
import type { CaptureAgent, CaptureEvent, ParsedRecord, TurnRole } from '../events';
import { count, isRecord, jsonRecord, text, timeOf, unusable } from '../events';
import type { CaptureFormat } from './captureFormat';
import { clineToolTouches } from './clineTools';
import { splitJsonArray } from './jsonElements';
import { emptyState, remember, take } from './readerState';
import type { ReaderState } from './readerState';

/**
 * Cline and Roo Code (a fork of Cline): a task's `ui_messages.json` in
 * `<global storage>/tasks/<task id>/`, the array of `ClineMessage {ts, type: ask | say, ask, say,
 * text, reasoning, partial, modelInfo}` that the extension rewrites whole on each change
 * (cline/cline, apps/vscode/src/shared/ExtensionMessage.ts; RooCodeInc/Roo-Code,
 * packages/types/src/message.ts). It holds everything the user saw: the task, the replies and
 * reasoning, every tool use (its `text` a JSON `ClineSayTool` with the path and diff), commands
 * and their output, API requests with their tokens, errors. `api_conversation_history.json`
 * beside it is the same conversation as the model saw it, so it is not read as well.
 * A message still streaming (`partial`) is taken once it is complete.
 */
function clineFormatFor(agent: CaptureAgent): CaptureFormat {
  return {
    agent,
    split: splitJsonArray(),
    rewrite: 'whole',
    // The task's folder is named by its id.
    initialState: (file) => emptyState(path.basename(path.dirname(file))),
    parse: (line, state) => parseMessage(agent, line, state),
  };
}

export const clineFormat = clineFormatFor('cline');
export const rooCodeFormat = clineFormatFor('roo-code');

const USER_SAYS = new Set(['task', 'user_feedback']);
const ASSISTANT_SAYS = new Set(['text', 'completion_result', 'plan_completion_result', 'reasoning']);
const ASSISTANT_ASKS = new Set(['followup', 'plan_mode_respond', 'act_mode_respond', 'completion_result']);
const ERRORS = new Set([
  'error',
  'diff_error',
  'clineignore_error',
  'rooignore_error',
  'api_req_failed',
  'mistake_limit_reached',
  'command_permission_denied',
  'shell_integration_warning',
]);
/** Messages with nothing to keep: progress, checkpoints, approvals, UI state. */
const QUIET = new Set([
  'api_req_finished',
  'api_req_retried',
  'api_req_retry_delayed',
  'api_req_deleted',
  'deleted_api_reqs',
  'checkpoint_created',
  'checkpoint_saved',
  'info',
  'task_progress',
  'hook_status',
  'hook_output_stream',
  'load_mcp_documentation',
  'conditional_rules_applied',
  'mcp_notification',
  'resume_task',
  'resume_completed_task',
  'new_task',
  'report_bug',
  'subagent',
  'use_subagents',
  'subagent_usage',
  'subtask_result',
  'browser_action_launch',
  'browser_action',
  'browser_action_result',
  'user_feedback_diff',
  'shell_integration_warning_with_suggestion',
  'auto_approval_max_req_reached',
  'codebase_search_result',
  'user_edit_todos',
  'too_many_tools_warning',
  'image',
]);

function parseMessage(agent: CaptureAgent, raw: string, state: ReaderState): ParsedRecord {
  const message = jsonRecord(raw);
  if (message === undefined) return unusable(raw, state);
  const sessionId = state.sessionId;
  const ts = message['ts'];
  const type = text(message['type']);
  const what = type === 'ask' ? text(message['ask']) : type === 'say' ? text(message['say']) : undefined;
  if (typeof ts !== 'number' || what === undefined) return { sessionId, status: 'unknown', events: [] };
  const at = timeOf(ts);
  const result = (events: CaptureEvent[], status: ParsedRecord['status'] = 'understood'): ParsedRecord => ({
    sessionId,
    status,
    events,
    ...(at === undefined ? {} : { at }),
  });
  const body = text(message['text']) ?? '';
  // Its tokens are written into the same message once the request is over.
  if (what === 'api_req_started') {
    remember(state.seen, 'requested');
    const spent = usage(body, ts);
    return result(spent.length > 0 && remember(state.usageIds, String(ts)) ? spent : []);
  }
  // Streaming, or taken already (the file is read again whole after each change).
  if (message['partial'] === true || !remember(state.seen, `${type}:${ts}`)) return result([]);
  const when = { at: ts };
  const events: CaptureEvent[] = [];
  // Roo Code says the task as `text`, before its first request.
  const rooTask = agent === 'roo-code' && what === 'text' && !state.seen.includes('requested');
  if (sessionId && remember(state.seen, 'session')) {
    const title = what === 'task' || rooTask ? { title: firstLine(body) } : {};
    events.push({ kind: 'session', agent, ...title, ...when });
  }
  const model = isRecord(message['modelInfo']) ? text(message['modelInfo']['modelId']) : undefined;
  if (model && sessionId && state.models[sessionId] !== model) {
    state.models[sessionId] = model;
    events.push({ kind: 'session', agent, model });
  }
  const turn = (role: TurnRole, said: string, thinking?: string) => {
    if (said.trim() !== '' || thinking)
      events.push({ kind: 'turn', role, text: said, ...(thinking ? { thinking } : {}), ...when });
  };
  if (type === 'say' && (USER_SAYS.has(what) || rooTask)) turn('user', body);
  else if (type === 'say' && what === 'reasoning') turn('assistant', '', body || undefined);
  else if (type === 'say' && ASSISTANT_SAYS.has(what)) turn('assistant', body, text(message['reasoning']));
  else if (type === 'ask' && ASSISTANT_ASKS.has(what)) turn('assistant', questionText(body));
  else if (ERRORS.has(what)) turn('system', `${what}: ${body}`);
  else if (what === 'error_retry') retryTurn(body, turn);
  else if (what === 'condense' || what === 'condense_context' || what === 'compaction')
    turn('summary', summaryText(message, body));
  else if (what === 'command') {
    const callId = `command:${ts}`;
    events.push({
      kind: 'tool-call',
      callId,
      name: 'execute_command',
      arguments: { command: body },
      ...when,
    });
    if (body.trim()) events.push({ kind: 'command', command: body.trim(), callId, ...when });
    remember(state.commandCalls, callId);
  } else if (what === 'command_output') {
    const callId = state.commandCalls[state.commandCalls.length - 1];
    if (callId && take(state.commandCalls, callId)) {
      const exit = /exit(?:ed with)? code:? (-?\d+)/i.exec(body)?.[1];
      const exitCode = exit === undefined ? undefined : Number(exit);
      events.push({
        kind: 'tool-result',
        callId,
        status: exitCode !== undefined && exitCode !== 0 ? 'error' : 'ok',
        output: body,
        ...(exitCode === undefined ? {} : { exitCode }),
        ...when,
      });
    }
  } else if (what === 'tool') {
    const tool = jsonRecord(body);
    if (!tool || !text(tool['tool'])) return result(events, 'unknown');
    const callId = `tool:${ts}`;
    events.push({ kind: 'tool-call', callId, name: text(tool['tool']) as string, arguments: tool, ...when });
    events.push(...clineToolTouches(tool, callId, ts));
  } else if (what === 'use_mcp_server' || what === 'mcp_server_request_started') {
    const call = jsonRecord(body) ?? {};
    const name = ['mcp', text(call['serverName']), text(call['toolName'])].filter(Boolean).join(':');
    const callId = `mcp:${ts}`;
    events.push({ kind: 'tool-call', callId, name, arguments: call, ...when });
    remember(state.commandCalls, callId);
  } else if (what === 'mcp_server_response') {
    const callId = [...state.commandCalls].reverse().find((c) => c.startsWith('mcp:'));
    if (callId && take(state.commandCalls, callId))
      events.push({ kind: 'tool-result', callId, status: 'ok', output: body, ...when });
  } else if (!QUIET.has(what)) return result(events, 'unknown');
  return result(events);
}

/**
 * Cline retrying a failed API request by itself: `{attempt, maxAttempts, delaySeconds,
 * errorMessage}`, with `failed: true` once it gave up. A system turn when it says why or gave up;
 * a bare retry counter says nothing to keep.
 */
function retryTurn(body: string, turn: (role: TurnRole, said: string) => void): void {
  const retry = jsonRecord(body);
  if (!retry) return turn('system', `error_retry: ${body}`);
  const why = text(retry['errorMessage']);
  const attempt = `attempt ${count(retry['attempt'])} of ${count(retry['maxAttempts'])}`;
  if (retry['failed'] === true) turn('system', `API request failed after ${attempt}${why ? `: ${why}` : ''}`);
  else if (why) turn('system', `API request retried (${attempt}): ${why}`);
}

/** An API request's tokens, once the request is over (the message is rewritten with them). */
function usage(body: string, ts: number): CaptureEvent[] {
  const info = jsonRecord(body);
  if (!info || (info['tokensIn'] === undefined && info['tokensOut'] === undefined)) return [];
  return [
    {
      kind: 'usage',
      mode: 'add',
      input: count(info['tokensIn']),
      output: count(info['tokensOut']),
      cacheRead: count(info['cacheReads']),
      cacheWrite: count(info['cacheWrites']),
      reasoning: 0,
      at: ts,
    },
  ];
}

/** A question or a plan is JSON `{question | response, options}` in newer versions, text in older. */
function questionText(body: string): string {
  const value = jsonRecord(body);
  return value ? (text(value['question']) ?? text(value['response']) ?? '') : body;
}

function summaryText(message: Record<string, unknown>, body: string): string {
  const condensed = message['contextCondense'];
  return isRecord(condensed) ? (text(condensed['summary']) ?? body) : body;
}

function firstLine(body: string): string {
  return (body.split('\n', 1)[0] ?? '').slice(0, 200);
}
