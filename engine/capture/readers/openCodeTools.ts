import type { CommandEvent, FileTouchEvent, UsageEvent } from '../events';
import { count, isRecord, text } from '../events';
import { patchTouches } from './applyPatch';
import { touchesOfCall } from './toolTouches';

/**
 * What a call of one of OpenCode's built-in tools touched (anomalyco/opencode,
 * packages/opencode/src/tool/): `read`, `write`, `edit` and `multiedit` name the file `filePath`
 * and the texts `oldString`/`newString` (Claude Code's shapes with other keys), `apply_patch` and
 * the older `patch` take Codex's patch envelope as `patchText`, `bash` a `command`.
 */
export function openCodeTouches(
  tool: string,
  input: Record<string, unknown>,
  callId: string,
  at: number | undefined,
): Array<FileTouchEvent | CommandEvent> {
  const file = text(input['filePath']) ?? text(input['path']);
  const edit = (e: Record<string, unknown>) => ({
    old_string: text(e['oldString']) ?? '',
    new_string: text(e['newString']) ?? '',
  });
  switch (tool) {
    case 'read':
      return touchesOfCall('Read', { file_path: file }, callId, at);
    case 'write':
      return touchesOfCall('Write', { file_path: file }, callId, at);
    case 'edit':
      return touchesOfCall('Edit', { file_path: file, ...edit(input) }, callId, at);
    case 'multiedit': {
      const edits = Array.isArray(input['edits']) ? input['edits'].filter(isRecord) : [];
      return touchesOfCall('MultiEdit', { file_path: file, edits: edits.map(edit) }, callId, at);
    }
    case 'apply_patch':
    case 'patch': {
      const patch = text(input['patchText']);
      return patch ? patchTouches(patch, callId, at) : [];
    }
    case 'bash':
      return touchesOfCall('Bash', { command: text(input['command']) }, callId, at);
    default:
      return [];
  }
}

/** OpenCode's `tokens {input, output, reasoning, cache {read, write}}` (a step's, or a first-format message's). */
export function openCodeUsage(tokens: unknown, at: number | undefined): UsageEvent[] {
  if (!isRecord(tokens)) return [];
  const cache = isRecord(tokens['cache']) ? tokens['cache'] : {};
  return [
    {
      kind: 'usage',
      mode: 'add',
      input: count(tokens['input']),
      output: count(tokens['output']),
      cacheRead: count(cache['read']),
      cacheWrite: count(cache['write']),
      reasoning: count(tokens['reasoning']),
      ...(at === undefined ? {} : { at }),
    },
  ];
}
