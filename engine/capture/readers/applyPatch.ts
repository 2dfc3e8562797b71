import type { FileTouchEvent, Hunk } from '../events';

/**
 * The files an `apply_patch` envelope changes, with its hunks. The format (openai/codex,
 * codex-rs/apply-patch): `*** Begin Patch`, then per file `*** Add File: P` (lines `+...`),
 * `*** Delete File: P`, or `*** Update File: P` (optionally `*** Move to: Q`) with `@@` hunks of
 * ' ', '-' and '+' lines, then `*** End Patch`. Lines that fit none of these are skipped.
 */
export function patchTouches(
  patch: string,
  callId: string | undefined,
  at: number | undefined,
): FileTouchEvent[] {
  const touches: FileTouchEvent[] = [];
  let current: FileTouchEvent | undefined;
  let hunk: Hunk | undefined;
  const base = { ...(callId ? { callId } : {}), ...(at === undefined ? {} : { at }) };
  const open = (file: string, action: FileTouchEvent['action']) => {
    current = { kind: 'file-touch', path: file.trim(), action, hunks: [], ...base };
    hunk = undefined;
    touches.push(current);
  };
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Delete|Update) File: (.+)$/.exec(line);
    if (header) {
      open(header[2] as string, header[1] === 'Add' ? 'create' : header[1] === 'Delete' ? 'delete' : 'edit');
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && current) {
      current.path = (move[1] as string).trim();
      continue;
    }
    if (line.startsWith('***') || !current || current.action === 'delete') continue;
    if (line.startsWith('@@')) {
      hunk = { lines: [] };
      current.hunks?.push(hunk);
      continue;
    }
    if (/^[ +-]/.test(line)) {
      if (!hunk) {
        hunk = { lines: [] };
        current.hunks?.push(hunk);
      }
      hunk.lines.push(line);
    }
  }
  for (const t of touches) if (t.hunks?.length === 0) delete t.hunks;
  return touches;
}
