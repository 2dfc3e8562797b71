import type { FileTouchEvent, Hunk } from '../events';
import { isRecord, text } from '../events';
import { replacementHunk } from './toolTouches';

const EDITS = new Set(['editedExistingFile', 'appliedDiff', 'searchAndReplace', 'insertContent']);

/**
 * What a Cline or Roo Code tool message (`ClineSayTool {tool, path, diff, content}`) touched:
 * reads, edits with their hunks, created and deleted files. Paths are relative to the task's
 * working directory, as the extension writes them.
 */
export function clineToolTouches(
  tool: Record<string, unknown>,
  callId: string,
  at: number,
): FileTouchEvent[] {
  const name = text(tool['tool']) ?? '';
  const file = text(tool['path']);
  const base = { kind: 'file-touch' as const, callId, at };
  if (name === 'readFile') {
    // Roo Code reads several files at once: `batchFiles [{path}]`.
    const batch = Array.isArray(tool['batchFiles']) ? tool['batchFiles'].filter(isRecord) : [];
    const paths = batch.length > 0 ? batch.map((f) => text(f['path'])) : [file];
    return paths.filter((p): p is string => !!p).map((p) => ({ ...base, path: p, action: 'read' as const }));
  }
  if (!file) return [];
  if (name === 'newFileCreated')
    return [
      { ...base, path: file, action: 'create', hunks: [replacementHunk('', text(tool['content']) ?? '')] },
    ];
  if (name === 'fileDeleted') return [{ ...base, path: file, action: 'delete' }];
  if (EDITS.has(name))
    return [{ ...base, path: file, action: 'edit', hunks: diffHunks(text(tool['diff']) ?? '') }];
  return [];
}

const SEARCH = /^(?:<{7}|-{7}) SEARCH\s*$/;
const DIVIDER = /^={7}\s*$/;
const REPLACE = /^(?:>{7}|\+{7}) REPLACE\s*$/;

/**
 * Hunks of the `diff` a tool message carries: SEARCH/REPLACE blocks (Cline writes `<<<<<<< SEARCH`
 * or, since 2025, `------- SEARCH` ... `=======` ... `+++++++ REPLACE`), or a unified diff.
 */
export function diffHunks(diff: string): Hunk[] {
  const lines = diff.split('\n');
  const hunks: Hunk[] = [];
  let search: string[] | undefined;
  let replace: string[] | undefined;
  let unified: Hunk | undefined;
  for (const line of lines) {
    if (SEARCH.test(line)) {
      search = [];
      replace = undefined;
    } else if (search && !replace && DIVIDER.test(line)) replace = [];
    else if (search && replace && REPLACE.test(line)) {
      hunks.push(replacementHunk(search.join('\n'), replace.join('\n')));
      search = replace = undefined;
    } else if (replace) replace.push(line);
    else if (search) search.push(line);
    else {
      const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (header) {
        unified = {
          oldStart: Number(header[1]),
          oldLines: Number(header[2] ?? 1),
          newStart: Number(header[3]),
          newLines: Number(header[4] ?? 1),
          lines: [],
        };
        hunks.push(unified);
      } else if (unified && /^[ +-]/.test(line) && !/^(?:---|\+\+\+) /.test(line)) unified.lines.push(line);
    }
  }
  return hunks;
}
