import { fileURLToPath } from 'node:url';
import type { CaptureEvent, CommandEvent, FileTouchEvent } from '../events';
import { isRecord, jsonRecord, text, timeOf } from '../events';
import { patchTouches } from './applyPatch';
import { replacementHunk } from './toolTouches';

/**
 * The events of one request of a VS Code chat session (`ISerializableChatRequestData`,
 * microsoft/vscode src/vs/workbench/contrib/chat/common/model/chatModel.ts): the user's message,
 * then, once the response is done, its parts in order: Markdown (a bare `{value}` in the current
 * log, `{kind: 'markdownContent', content}` in older files) and inline file references make the
 * assistant's text, `thinking` its reasoning, `toolInvocationSerialized` a tool call with its
 * result (agent mode), `textEditGroup` an edit to a file. The arguments of a call come from the
 * Copilot extension's `result.metadata.toolCallRounds` when it recorded them.
 */
export function userTurn(request: Record<string, unknown>): CaptureEvent | undefined {
  const message = request['message'];
  const body = isRecord(message)
    ? (text(message['text']) ??
      (Array.isArray(message['parts'])
        ? message['parts']
            .filter(isRecord)
            .map((p) => text(p['text']) ?? '')
            .join('')
        : ''))
    : (text(message) ?? '');
  if (body.trim() === '') return undefined;
  const at = timeOf(request['timestamp']);
  return { kind: 'turn', role: 'user', text: body, ...(at === undefined ? {} : { at }) };
}

/** Whether the response is over: a result, a final model state, or a cancel. */
export function responseDone(request: Record<string, unknown>): boolean {
  const state = request['modelState'];
  if (isRecord(state) && typeof state['value'] === 'number') return state['value'] !== 0;
  return isRecord(request['result']) || request['isCanceled'] === true;
}

/** Response part kinds that carry nothing Engram keeps (progress, UI, confirmations). */
const QUIET = new Set([
  'prepareToolInvocation',
  'undoStop',
  'progressMessage',
  'progressTaskSerialized',
  'codeblockUri',
  'confirmation',
  'command',
  'extensions',
  'pullRequest',
  'treeData',
  'elicitationSerialized',
  'mcpServersStarting',
  'multiDiffData',
  'clearToPreviousToolInvocation',
  'warning',
  'references',
]);

export interface ResponseEvents {
  events: CaptureEvent[];
  /** Parts of a kind this reader does not know. */
  unknown: number;
}

export function responseEvents(request: Record<string, unknown>, requestKey: string): ResponseEvents {
  const at = timeOf(request['timestamp']);
  const when = at === undefined ? {} : { at };
  const model = text(request['modelId']);
  const events: CaptureEvent[] = [];
  let unknown = 0;
  let said = '';
  let thought = '';
  const flush = () => {
    if (said.trim() !== '' || thought.trim() !== '') {
      events.push({
        kind: 'turn',
        role: 'assistant',
        text: said.trim(),
        ...(thought.trim() ? { thinking: thought.trim() } : {}),
        ...(model ? { model } : {}),
        ...when,
      });
    }
    said = '';
    thought = '';
  };
  const argumentsById = recordedArguments(request['result']);
  const parts = Array.isArray(request['response']) ? request['response'] : [];
  parts.forEach((part, index) => {
    if (!isRecord(part)) return;
    const kind = text(part['kind']);
    if (kind === undefined || kind === 'markdownContent' || kind === 'markdownVuln') {
      const content = kind === undefined ? part : part['content'];
      said += isRecord(content) ? (text(content['value']) ?? '') : '';
    } else if (kind === 'inlineReference') {
      said += `\`${text(part['name']) ?? referenceName(part['inlineReference'])}\``;
    } else if (kind === 'thinking') {
      const value = part['value'];
      thought += Array.isArray(value)
        ? value.filter((v) => typeof v === 'string').join('')
        : (text(value) ?? '');
    } else if (kind === 'toolInvocationSerialized') {
      flush();
      events.push(...toolEvents(part, `${requestKey}:${index}`, argumentsById, at));
    } else if (kind === 'textEditGroup' || kind === 'notebookEditGroup') {
      const file = uriPath(part['uri']);
      if (file)
        events.push({ kind: 'file-touch', path: file, action: 'edit', hunks: editHunks(part), ...when });
    } else if (!QUIET.has(kind)) unknown++;
  });
  flush();
  const result = request['result'];
  const error =
    isRecord(result) && isRecord(result['errorDetails'])
      ? text(result['errorDetails']['message'])
      : undefined;
  if (error) events.push({ kind: 'turn', role: 'system', text: `error: ${error}`, ...when });
  return { events, unknown };
}

function toolEvents(
  part: Record<string, unknown>,
  fallbackId: string,
  argumentsById: Map<string, unknown>,
  at: number | undefined,
): CaptureEvent[] {
  const when = at === undefined ? {} : { at };
  const callId = text(part['toolCallId']) ?? fallbackId;
  const name = text(part['toolId']) ?? 'tool';
  const specific = isRecord(part['toolSpecificData']) ? part['toolSpecificData'] : {};
  const details = isRecord(part['resultDetails']) ? part['resultDetails'] : {};
  const args =
    argumentsById.get(callId) ??
    (isRecord(specific['rawInput']) ? specific['rawInput'] : undefined) ??
    parsedInput(details['input']) ??
    {};
  const events: CaptureEvent[] = [{ kind: 'tool-call', callId, name, arguments: args, ...when }];
  const commandLine = isRecord(specific['commandLine']) ? specific['commandLine'] : {};
  const command =
    text(commandLine['userEdited']) ??
    text(commandLine['toolEdited']) ??
    text(commandLine['original']) ??
    text(specific['command']) ??
    (TERMINAL.has(name) && isRecord(args) ? text(args['command']) : undefined);
  const state = isRecord(specific['terminalCommandState']) ? specific['terminalCommandState'] : {};
  const exitCode = typeof state['exitCode'] === 'number' ? state['exitCode'] : undefined;
  if (command) events.push({ kind: 'command', command, callId, ...when });
  else events.push(...callTouches(name, args, callId, at));
  if (part['isComplete'] === false) return events;
  const declined =
    part['isConfirmed'] === false || (isRecord(part['isConfirmed']) && part['isConfirmed']['type'] === 0);
  const failed = details['isError'] === true || declined || (exitCode !== undefined && exitCode !== 0);
  const output = resultOutput(details, specific) ?? markdownText(part['pastTenseMessage']);
  events.push({
    kind: 'tool-result',
    callId,
    status: failed ? 'error' : 'ok',
    ...(output ? { output } : {}),
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(typeof state['duration'] === 'number' ? { durationMs: state['duration'] } : {}),
    ...when,
  });
  return events;
}

const TERMINAL = new Set(['run_in_terminal', 'copilot_runInTerminal', 'runInTerminal']);

/** What the built-in agent-mode tools touched (their names in the Copilot extension's tool set). */
function callTouches(
  name: string,
  args: unknown,
  callId: string,
  at: number | undefined,
): Array<FileTouchEvent | CommandEvent> {
  if (!isRecord(args)) return [];
  const when = at === undefined ? {} : { at };
  const file = text(args['filePath']) ?? text(args['path']);
  const touch = (action: FileTouchEvent['action'], hunks?: FileTouchEvent['hunks']): FileTouchEvent[] =>
    file ? [{ kind: 'file-touch', path: file, action, callId, ...(hunks ? { hunks } : {}), ...when }] : [];
  switch (name.replace(/^copilot_/, '')) {
    case 'readFile':
    case 'read_file':
      return touch('read');
    case 'createFile':
    case 'create_file':
      return touch('create', [replacementHunk('', text(args['content']) ?? '')]);
    case 'replaceString':
    case 'replace_string_in_file':
      return touch('edit', [replacementHunk(text(args['oldString']) ?? '', text(args['newString']) ?? '')]);
    case 'insertEdit':
    case 'insert_edit_into_file':
      return touch('edit', [replacementHunk('', text(args['code']) ?? '')]);
    case 'multiReplaceString':
    case 'multi_replace_string_in_file': {
      const replacements = Array.isArray(args['replacements']) ? args['replacements'].filter(isRecord) : [];
      return replacements.flatMap((r) => {
        const target = text(r['filePath']);
        if (!target) return [];
        const hunk = replacementHunk(text(r['oldString']) ?? '', text(r['newString']) ?? '');
        return [
          {
            kind: 'file-touch' as const,
            path: target,
            action: 'edit' as const,
            callId,
            hunks: [hunk],
            ...when,
          },
        ];
      });
    }
    case 'applyPatch':
    case 'apply_patch':
      return patchTouches(text(args['input']) ?? '', callId, at);
    default:
      return [];
  }
}

/** `result.metadata.toolCallRounds[].toolCalls[] {id, name, arguments}`: the arguments by call id. */
function recordedArguments(result: unknown): Map<string, unknown> {
  const byId = new Map<string, unknown>();
  const metadata = isRecord(result) ? result['metadata'] : undefined;
  const rounds =
    isRecord(metadata) && Array.isArray(metadata['toolCallRounds']) ? metadata['toolCallRounds'] : [];
  for (const round of rounds.filter(isRecord)) {
    for (const call of Array.isArray(round['toolCalls']) ? round['toolCalls'].filter(isRecord) : []) {
      const id = text(call['id']);
      const args = call['arguments'];
      if (id) byId.set(id, typeof args === 'string' ? (jsonRecord(args) ?? args) : args);
    }
  }
  return byId;
}

function parsedInput(input: unknown): unknown {
  if (isRecord(input)) return input;
  return typeof input === 'string' ? (jsonRecord(input) ?? undefined) : undefined;
}

function resultOutput(
  details: Record<string, unknown>,
  specific: Record<string, unknown>,
): string | undefined {
  const terminal = isRecord(specific['terminalCommandOutput'])
    ? text(specific['terminalCommandOutput']['text'])
    : undefined;
  if (terminal) return terminal;
  const output = details['output'];
  if (!Array.isArray(output)) return undefined;
  const texts = output.filter(isRecord).map((o) => text(o['value']) ?? text(o['text']) ?? '');
  const joined = texts.filter((t) => t !== '').join('\n');
  return joined === '' ? undefined : joined;
}

function markdownText(value: unknown): string | undefined {
  return text(value) ?? (isRecord(value) ? text(value['value']) : undefined);
}

/** Each edit's new text as added lines (the old text is not recorded, only its range). */
function editHunks(part: Record<string, unknown>): FileTouchEvent['hunks'] {
  const groups = Array.isArray(part['edits']) ? part['edits'] : [];
  const hunks: NonNullable<FileTouchEvent['hunks']> = [];
  for (const group of groups) {
    for (const edit of Array.isArray(group) ? group.filter(isRecord) : []) {
      const range = isRecord(edit['range']) ? edit['range'] : {};
      const start = typeof range['startLineNumber'] === 'number' ? range['startLineNumber'] : undefined;
      const added = text(edit['text']) ?? '';
      if (added === '' && start === undefined) continue;
      hunks.push({
        ...(start === undefined ? {} : { newStart: start }),
        lines: added === '' ? [] : added.split('\n').map((l) => `+${l}`),
      });
    }
  }
  return hunks;
}

/** A path from a serialized URI (`{fsPath, path, scheme}`) or a URI string. */
export function uriPath(uri: unknown): string | undefined {
  if (isRecord(uri)) {
    if (isRecord(uri['uri'])) return uriPath(uri['uri']); // a location
    const scheme = text(uri['scheme']);
    if (scheme !== undefined && scheme !== 'file' && scheme !== 'vscode-remote') return undefined;
    return text(uri['fsPath']) ?? text(uri['path']);
  }
  const value = text(uri);
  if (!value) return undefined;
  if (!value.startsWith('file:')) return value.includes(':') && !/^[A-Za-z]:/.test(value) ? undefined : value;
  try {
    return fileURLToPath(value);
  } catch {
    return undefined;
  }
}

function referenceName(reference: unknown): string {
  const file = uriPath(reference);
  return file ? (file.split(/[\\/]/).pop() ?? file) : '';
}
