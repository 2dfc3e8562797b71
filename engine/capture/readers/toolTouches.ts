import type { CommandEvent, FileTouchEvent, Hunk } from '../events';
import { isRecord, text } from '../events';

/** A hunk from an edit's old and new text, when the format gives no line numbers. */
export function replacementHunk(oldText: string, newText: string): Hunk {
  const lines = (s: string, sign: string) => (s === '' ? [] : s.split('\n').map((l) => sign + l));
  return { lines: [...lines(oldText, '-'), ...lines(newText, '+')] };
}

/** `structuredPatch` hunks (the jsdiff shape Claude Code records): numbers and signed lines. */
export function structuredHunks(value: unknown): Hunk[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const hunks: Hunk[] = [];
  for (const h of value) {
    if (!isRecord(h) || !Array.isArray(h['lines'])) continue;
    hunks.push({
      ...numberField(h, 'oldStart'),
      ...numberField(h, 'oldLines'),
      ...numberField(h, 'newStart'),
      ...numberField(h, 'newLines'),
      lines: h['lines'].filter((l): l is string => typeof l === 'string'),
    });
  }
  return hunks;
}

function numberField(h: Record<string, unknown>, key: keyof Hunk): Partial<Hunk> {
  const v = h[key];
  return typeof v === 'number' ? { [key]: v } : {};
}

/**
 * What a call of one of the common coding tools touched, from its name and arguments: Claude
 * Code's Read/Write/Edit/MultiEdit/NotebookEdit/Bash and the same shapes other agents use.
 */
export function touchesOfCall(
  name: string,
  input: unknown,
  callId: string,
  at: number | undefined,
): Array<FileTouchEvent | CommandEvent> {
  if (!isRecord(input)) return [];
  const when = at === undefined ? {} : { at };
  const file = text(input['file_path']) ?? text(input['notebook_path']) ?? text(input['path']);
  switch (name) {
    case 'Read':
    case 'NotebookRead':
      return file ? [{ kind: 'file-touch', path: file, action: 'read', callId, ...when }] : [];
    case 'Write':
      return file ? [{ kind: 'file-touch', path: file, action: 'create', callId, ...when }] : [];
    case 'Edit':
      return file
        ? [
            {
              kind: 'file-touch',
              path: file,
              action: 'edit',
              callId,
              hunks: [replacementHunk(text(input['old_string']) ?? '', text(input['new_string']) ?? '')],
              ...when,
            },
          ]
        : [];
    case 'MultiEdit': {
      if (!file) return [];
      const edits = Array.isArray(input['edits']) ? input['edits'].filter(isRecord) : [];
      const hunks = edits.map((e) =>
        replacementHunk(text(e['old_string']) ?? '', text(e['new_string']) ?? ''),
      );
      return [{ kind: 'file-touch', path: file, action: 'edit', callId, hunks, ...when }];
    }
    case 'NotebookEdit':
      return file ? [{ kind: 'file-touch', path: file, action: 'edit', callId, ...when }] : [];
    case 'Bash': {
      const command = text(input['command']);
      return command ? [{ kind: 'command', command, callId, ...when }] : [];
    }
    default:
      return [];
  }
}
