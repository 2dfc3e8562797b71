import path from 'node:path';
import type { CaptureEvent, FileTouchEvent, ParsedRecord } from '../events';
import type { RawRecord, SplitResult } from '../rawRecords';
import { splitLines } from '../rawRecords';
import type { CaptureFormat } from './captureFormat';
import { emptyState } from './readerState';
import type { ReaderState } from './readerState';

/**
 * Aider's `.aider.chat.history.md` in the repository (Aider-AI/aider, aider/io.py): each run
 * appends `# aider chat started at YYYY-MM-DD HH:MM:SS`; the user's input is written as `#### `
 * lines, the tool's own output as `> ` lines, the model's replies as plain Markdown (edits as
 * SEARCH/REPLACE blocks under the file name). A record is one such block.
 */
export const aiderFormat: CaptureFormat = {
  agent: 'aider',
  split: splitBlocks,
  initialState(file) {
    return { ...emptyState(), cwd: path.dirname(file) };
  },
  parse: parseAiderBlock,
};

type BlockKind = 'header' | 'user' | 'tool' | 'assistant';

const HEADER = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/;

function kindOf(line: string): BlockKind {
  if (HEADER.test(line)) return 'header';
  if (line.startsWith('####')) return 'user';
  if (line.startsWith('>')) return 'tool';
  return 'assistant';
}

/** Complete lines grouped into blocks of one kind; blank lines join the block before them. */
function splitBlocks(bytes: Uint8Array, base: number): SplitResult {
  const lines = splitLinesKeepingBlanks(bytes, base);
  const records: RawRecord[] = [];
  let current: { kind: BlockKind; record: RawRecord } | undefined;
  let fenced = false;
  for (const line of lines.records) {
    const blank = line.text.trim() === '';
    // Inside a reply's code fence (or at a SEARCH/REPLACE marker) no line starts another block.
    const inReply = current?.kind === 'assistant' && (fenced || /^>{5,9} REPLACE/.test(line.text));
    const kind = inReply ? 'assistant' : kindOf(line.text);
    if (kind === 'assistant' && line.text.trimStart().startsWith('```')) fenced = !fenced;
    if (kind !== 'assistant') fenced = false;
    if (current && (blank || (kind === current.kind && kind !== 'header'))) {
      current.record.text += `\n${line.text}`;
      current.record.end = line.end;
      continue;
    }
    if (blank) continue;
    current = { kind, record: { ...line } };
    records.push(current.record);
  }
  for (const r of records) r.text = r.text.replace(/\s+$/, '');
  return { records, consumed: lines.consumed };
}

function splitLinesKeepingBlanks(bytes: Uint8Array, base: number): SplitResult {
  // splitLines drops blank lines; here they matter only as part of a block, so add them back.
  const { records, consumed } = splitLines(bytes, base);
  const out: RawRecord[] = [];
  let last = base;
  for (const r of records) {
    if (r.offset > last) out.push({ offset: last, end: r.offset, text: '' });
    out.push(r);
    last = r.end;
  }
  if (consumed > last) out.push({ offset: last, end: consumed, text: '' });
  return { records: out, consumed };
}

function parseAiderBlock(block: string, state: ReaderState): ParsedRecord {
  const first = block.split('\n', 1)[0] ?? '';
  const events: CaptureEvent[] = [];
  switch (kindOf(first)) {
    case 'header': {
      const m = HEADER.exec(first);
      const at = m ? Date.parse(`${m[1]}T${m[2]}`) : undefined;
      const started = at === undefined || Number.isNaN(at) ? undefined : at;
      state.sessionId = `aider-${m ? `${m[1]}T${m[2]}` : 'unknown'}`;
      events.push({
        kind: 'session',
        agent: 'aider',
        ...(state.cwd ? { cwd: state.cwd } : {}),
        ...(started ? { at: started } : {}),
      });
      return {
        sessionId: state.sessionId,
        status: 'understood',
        events,
        ...(started ? { at: started } : {}),
      };
    }
    case 'user': {
      const input = block
        .split('\n')
        .map((l) => l.replace(/^####\s?/, '').replace(/\s+$/, ''))
        .join('\n')
        .trim();
      if (input !== '' && input !== '<blank>') events.push({ kind: 'turn', role: 'user', text: input });
      const run = /^(?:\/run|\/test|!)\s*(.+)$/s.exec(input);
      if (run) events.push({ kind: 'command', command: (run[1] as string).trim() });
      break;
    }
    case 'tool': {
      const output = block
        .split('\n')
        .map((l) => l.replace(/^>\s?/, '').replace(/\s+$/, ''))
        .join('\n')
        .trim();
      const model = /^(?:Main )?[Mm]odel: (\S+)/m.exec(output)?.[1];
      if (model) events.push({ kind: 'session', agent: 'aider', model });
      if (output !== '') events.push({ kind: 'turn', role: 'system', text: output });
      break;
    }
    case 'assistant':
      events.push({ kind: 'turn', role: 'assistant', text: block.trim() }, ...searchReplaceEdits(block));
      break;
  }
  return { sessionId: state.sessionId, status: state.sessionId ? 'understood' : 'unknown', events };
}

/**
 * SEARCH/REPLACE edits: a file name line, an optional fence, `<<<<<<< SEARCH`, the old lines,
 * `=======`, the new lines, `>>>>>>> REPLACE`. Each becomes a hunk of an edit of that file (a
 * create when the search part is empty).
 */
function searchReplaceEdits(block: string): FileTouchEvent[] {
  const lines = block.split('\n');
  const touches = new Map<string, FileTouchEvent>();
  for (let i = 0; i < lines.length; i++) {
    if (!/^<{5,9} SEARCH\s*$/.test(lines[i] as string)) continue;
    let name = '';
    for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
      const candidate = (lines[j] as string).trim();
      if (candidate !== '' && !candidate.startsWith('```')) {
        name = candidate.replace(/^[`*]+|[`*:]+$/g, '');
        break;
      }
    }
    const old: string[] = [];
    const updated: string[] = [];
    let target = old;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as string;
      if (/^={5,9}\s*$/.test(line)) target = updated;
      else if (/^>{5,9} REPLACE\s*$/.test(line)) break;
      else target.push(line);
    }
    i = j;
    if (name === '') continue;
    const hunk = { lines: [...old.map((l) => `-${l}`), ...updated.map((l) => `+${l}`)] };
    const touch = touches.get(name);
    if (touch) touch.hunks?.push(hunk);
    else
      touches.set(name, {
        kind: 'file-touch',
        path: name,
        action: old.length === 0 ? 'create' : 'edit',
        hunks: [hunk],
      });
  }
  return [...touches.values()];
}
