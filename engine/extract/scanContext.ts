import { forEachMatch } from './regexScan';

/** What every matcher needs to know about a text besides its characters. */
export interface ScanContext {
  readonly text: string;
  /** 1 for each char inside inline code (backticks included) or a fenced code block; absent without code. */
  readonly code: Uint8Array | undefined;
  /** [start, end) of the content between each pair of single backticks. */
  readonly inlineCode: ReadonlyArray<readonly [number, number]>;
  /** [start, end) of each line inside a fenced block whose language is a shell (or none). */
  readonly shellLines: ReadonlyArray<readonly [number, number]>;
  /** [start, end) of each `[REDACTED:kind]` marker left by redactSecrets. */
  readonly redactions: ReadonlyArray<readonly [number, number]>;
  /** Each fenced block: [start, end) of its content lines, and its language as written (lower-cased). */
  readonly fences: ReadonlyArray<FencedBlock>;
}

export interface FencedBlock {
  start: number;
  end: number;
  language: string;
}

// Bounded content keeps the scan linear on a text full of backticks.
const INLINE_CODE_RE = /`([^`\n]{1,400})`/g;
const FENCE_RE = /[ ]{0,3}(`{3,}|~{3,})[ \t]*([\w+-]*)/y;
const REDACTION_RE = /\[REDACTED:[\w-]{1,40}\]/g;
/** Fence languages of shell sessions ('' too: an unlabelled fence is read as one here). */
export const SHELL_LANGUAGES: ReadonlySet<string> = new Set([
  '',
  'sh',
  'bash',
  'zsh',
  'fish',
  'shell',
  'console',
  'terminal',
  'powershell',
  'ps1',
  'pwsh',
  'cmd',
  'bat',
]);

export function createScanContext(text: string): ScanContext {
  const hasFences = text.includes('```') || text.includes('~~~');
  const code = hasFences || text.includes('`') ? new Uint8Array(text.length) : undefined;
  const shellLines: Array<[number, number]> = [];
  const inlineCode: Array<[number, number]> = [];
  const fences: FencedBlock[] = [];
  if (code !== undefined) {
    if (hasFences) markFences(text, code, shellLines, fences);
    forEachMatch(INLINE_CODE_RE, text, (m) => {
      if (code[m.index] === 1) return;
      const end = m.index + m[0].length;
      code.fill(1, m.index, end);
      inlineCode.push([m.index + 1, end - 1]);
    });
  }
  const redactions: Array<[number, number]> = [];
  if (text.includes('[REDACTED:')) {
    forEachMatch(REDACTION_RE, text, (m) => redactions.push([m.index, m.index + m[0].length]));
  }
  return { text, code, inlineCode, shellLines, redactions, fences };
}

/** True when `pos` is inside inline code or a fenced block. */
export function isCode(ctx: ScanContext, pos: number): boolean {
  return ctx.code !== undefined && ctx.code[pos] === 1;
}

/** Marks fenced blocks as code, line by line, and keeps the lines of shell blocks. */
function markFences(
  text: string,
  code: Uint8Array,
  shellLines: Array<[number, number]>,
  fences: FencedBlock[],
): void {
  let open: { marker: string; shell: boolean; start: number; language: string } | undefined;
  let pos = 0;
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos);
    const end = newline === -1 ? text.length : newline;
    FENCE_RE.lastIndex = pos;
    const fence = FENCE_RE.exec(text);
    if (open === undefined) {
      if (fence?.[1] !== undefined) {
        const language = (fence[2] ?? '').toLowerCase();
        open = { marker: fence[1], shell: SHELL_LANGUAGES.has(language), start: end + 1, language };
        code.fill(1, pos, end);
      }
    } else {
      code.fill(1, pos, end);
      const marker = fence?.[1];
      if (marker !== undefined && marker[0] === open.marker[0] && marker.length >= open.marker.length) {
        fences.push({ start: Math.min(open.start, pos), end: pos, language: open.language });
        open = undefined;
      } else if (open.shell) {
        shellLines.push([pos, end]);
      }
    }
    pos = end + 1;
  }
  // An unclosed fence runs to the end of the text.
  if (open !== undefined)
    fences.push({ start: Math.min(open.start, text.length), end: text.length, language: open.language });
}

const QUOTE_OR_BULLET = new Set([...' \t"\'“‘(*_[#>-•']);
const SENTENCE_END = new Set([...'.!?:;…']);

/**
 * True when `pos` begins a sentence: at the start of the text or a line, or after sentence
 * punctuation, ignoring quotes, brackets and list bullets in between. A capitalised word there
 * says nothing about being a name.
 */
export function isSentenceStart(text: string, pos: number): boolean {
  for (let i = pos - 1, skipped = 0; i >= 0; i--, skipped++) {
    const c = text[i] as string;
    if (c === '\n' || c === '\r') return true;
    if (QUOTE_OR_BULLET.has(c) && skipped < 16) continue;
    return SENTENCE_END.has(c);
  }
  return true;
}

/** True when only blanks (and markdown emphasis or quoting) precede `pos` on its line. */
export function isLineStart(text: string, pos: number): boolean {
  for (let i = pos - 1; i >= 0 && i >= pos - 16; i--) {
    const c = text[i] as string;
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t' && c !== '*' && c !== '>' && c !== '_') return false;
  }
  return pos < 16;
}
