import { isPathChar } from './charClasses';
import { createMention } from './mention';
import type { Mention } from './mention';
import {
  CALL_RECEIVERS,
  EXTENSIONLESS_FILES,
  FILE_EXTENSIONS,
  FILESYSTEM_ROOTS,
  PROJECT_ROOT_DIRS,
  WEAK_ROOT_DIRS,
  isConfigDotfile,
} from './pathVocabulary';
import type { ScanContext } from './scanContext';
import { trimEndChars } from './textTrim';
import { TOOL_WORDS } from './toolIndex';

/*
 * A candidate is a run of path characters that holds a `.`, `/` or `\`. The text is searched for
 * those anchors only; from each, the walk back to the start of its run and forward to its end
 * happens once per run, and the bounded sticky pattern below is tried from the run's start: linear
 * on any input. A `:12` or `#L10` suffix stops the match (neither `:` nor `#` is a path character),
 * so a line number is never part of the name.
 */
const ANCHOR_RE = /[/\\]|\.[\w~./\\]/g;
const PATH_RE =
  /(?<![\w@.~/\\+:-])(?=(?:[A-Za-z]:)?[\w@.~/\\+-]*[./\\])(?:[A-Za-z]:[\\/]|~[\\/]|\.{1,2}[\\/]|[\\/])?(?:[\w@+.-]{1,128}[\\/]){0,32}[\w@+.-]{0,128}/y;
const CODE_LIKE_SEGMENT_RE = /^[\w.@-]+$/;
const LETTER_RE = /[A-Za-z]/;

type Anchor = 'drive' | 'home' | 'relative' | 'absolute' | 'bare';

export function matchPaths(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  ANCHOR_RE.lastIndex = 0;
  for (let a = ANCHOR_RE.exec(text); a !== null; a = ANCHOR_RE.exec(text)) {
    const start = runStart(text, a.index);
    let end = a.index + 1;
    while (end < text.length && isPathChar(text.charCodeAt(end))) end++;
    ANCHOR_RE.lastIndex = end;
    PATH_RE.lastIndex = start;
    const m = PATH_RE.exec(text);
    if (m === null || m[0].length === 0) continue;
    const mention = toPathMention(text, start, m[0]);
    if (mention !== undefined) out.push(mention);
  }
}

/** Start of the run of path characters around `at`, taking in a drive prefix (`C:`). */
function runStart(text: string, at: number): number {
  let start = at;
  while (start > 0 && isPathChar(text.charCodeAt(start - 1))) start--;
  const drive = start - 2;
  if (
    drive >= 0 &&
    text[start - 1] === ':' &&
    LETTER_RE.test(text[drive] as string) &&
    (drive === 0 || !(isPathChar(text.charCodeAt(drive - 1)) || text[drive - 1] === ':'))
  ) {
    return drive;
  }
  return start;
}

/** Lower-cased, forward slashes, no leading `./`, no trailing slash: `./Src\A.ts` -> `src/a.ts`. */
export function pathKey(path: string): string {
  let key = path.trim().toLowerCase().replace(/\\/g, '/');
  while (key.startsWith('./')) key = key.slice(2);
  const trimmed = trimEndChars(key, '/');
  return trimmed.length > 0 ? trimmed : key;
}

function anchorOf(path: string): Anchor {
  if (/^[A-Za-z]:[\\/]/.test(path)) return 'drive';
  if (path.startsWith('~')) return 'home';
  if (path.startsWith('.')) return /^\.{1,2}[\\/]/.test(path) ? 'relative' : 'bare';
  if (path.startsWith('/') || path.startsWith('\\')) return 'absolute';
  return 'bare';
}

function toPathMention(text: string, start: number, raw: string): Mention | undefined {
  const path = trimEndChars(raw, '.+-');
  if (!LETTER_RE.test(path)) return undefined;
  const segments = path.split(/[\\/]/);
  const last = segments[segments.length - 1] ?? '';
  const separators = segments.length - 1;
  const end = start + path.length;
  const anchor = anchorOf(path);
  const named = segments.filter((s) => s.length > 0 && s !== '.' && s !== '..' && s !== '~');
  const first = named[0] ?? '';

  if (last === '') {
    if (named.length === 0) return undefined;
    if (anchor === 'bare' && !(named.every((s) => CODE_LIKE_SEGMENT_RE.test(s)) && first.length >= 2)) {
      return undefined;
    }
    return createMention(start, end, 'directory', path, pathKey(path));
  }

  const dot = last.lastIndexOf('.');
  if (dot > 0 && FILE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase())) {
    if (separators === 0 && !isBareFileName(text, end, path)) return undefined;
    return createMention(start, end, 'file', path, pathKey(path));
  }
  if (last.startsWith('.') && isConfigDotfile(last)) {
    return createMention(start, end, 'file', path, pathKey(path));
  }
  if (separators === 0 || named.length === 0) return undefined;

  // No extension: a folder, unless it is a well-known extension-less file, and only when anchored
  // somewhere a path can start.
  const rooted =
    anchor === 'relative' ||
    anchor === 'drive' ||
    anchor === 'home' ||
    (anchor === 'absolute' && named.length >= 2 && FILESYSTEM_ROOTS.has(first)) ||
    (anchor === 'bare' &&
      (PROJECT_ROOT_DIRS.has(first.toLowerCase()) ||
        (separators >= 2 && WEAK_ROOT_DIRS.has(first.toLowerCase()))) &&
      named.every((s) => CODE_LIKE_SEGMENT_RE.test(s)));
  if (!rooted) return undefined;
  const type = EXTENSIONLESS_FILES.has(last) ? 'file' : 'directory';
  return createMention(start, end, type, path, pathKey(path));
}

/** `package.json` yes; `console.log`, `res.json(...)`, `Node.js` (a tool) and `3.5.ts` no. */
function isBareFileName(text: string, end: number, name: string): boolean {
  if (text[end] === '(') return false;
  const lower = name.toLowerCase();
  if (TOOL_WORDS.has(lower)) return false;
  const undotted = lower.replace(/^\.+/, '');
  const stem = undotted.slice(0, undotted.indexOf('.'));
  return LETTER_RE.test(stem) && !CALL_RECEIVERS.has(stem);
}
