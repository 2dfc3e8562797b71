import { createMention } from './mention';
import type { Mention } from './mention';
import type { ScanContext } from './scanContext';
import { trimEndChars } from './textTrim';

/*
 * URLs are found from their anchors (`://`, `www.`, `@` for scp-style git remotes) rather than
 * tried at every word: documentation is full of words and has few URLs.
 */
const SCHEMES = new Set(
  'http https ftp ws wss file ssh git s3 postgres postgresql mysql mariadb mongodb mongodb+srv redis rediss amqp amqps'.split(
    ' ',
  ),
);
const SCHEME_CHAR_RE = /[A-Za-z0-9+.-]/;
const NOT_BEFORE_URL_RE = /[\w@.+-]/;
const URL_BODY_RE = /[^\s<>"'`]{1,2048}/y;
const SCP_RE = /[\w.-]{1,64}@[\w-]{1,64}(?:\.[\w-]{1,64}){1,8}:[\w.~/-]{1,256}\.git(?![\w-])/y;
const SCP_USER_RE = /[\w.-]/;
const TRAILING_CHARS = new Set([...'.,;:!?*']);
const PAIRS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

export function matchUrls(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  let done = 0;
  for (let sep = text.indexOf('://'); sep !== -1; sep = text.indexOf('://', sep + 3)) {
    if (sep < done) continue;
    let start = sep;
    while (start > 0 && sep - start < 16 && SCHEME_CHAR_RE.test(text[start - 1] as string)) start--;
    if (!SCHEMES.has(text.slice(start, sep).toLowerCase()) || precededByUrlChar(text, start)) continue;
    done = addUrl(text, start, out);
  }
  for (let at = text.indexOf('www.'); at !== -1; at = text.indexOf('www.', at + 4)) {
    if (at >= done && !precededByUrlChar(text, at)) done = addUrl(text, at, out);
  }
  if (text.includes('.git')) {
    for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
      let start = at;
      while (start > 0 && at - start < 64 && SCP_USER_RE.test(text[start - 1] as string)) start--;
      if (start === at || (start > 0 && text[start - 1] === '@')) continue;
      SCP_RE.lastIndex = start;
      const m = SCP_RE.exec(text);
      if (m !== null) out.push(createUrlMention(start, m[0]));
    }
  }
}

function precededByUrlChar(text: string, start: number): boolean {
  return start > 0 && NOT_BEFORE_URL_RE.test(text[start - 1] as string);
}

/** Adds the URL starting at `start` if it has a host; returns where scanning may resume. */
function addUrl(text: string, start: number, out: Mention[]): number {
  URL_BODY_RE.lastIndex = start;
  const raw = URL_BODY_RE.exec(text)?.[0] ?? '';
  const url = trimUrl(raw);
  const slashes = url.indexOf('//');
  if (url.length > 4 && /\w/.test(url.slice(slashes === -1 ? 0 : slashes + 2)))
    out.push(createUrlMention(start, url));
  return start + Math.max(raw.length, 1);
}

export function createUrlMention(start: number, url: string): Mention {
  return createMention(start, start + url.length, 'url', url, urlKey(url));
}

function urlKey(url: string): string {
  const key = url.trim().toLowerCase();
  const trimmed = trimEndChars(key, '/');
  return trimmed.endsWith(':') ? key : trimmed;
}

/** Drops sentence punctuation and closing brackets that the URL did not open. */
function trimUrl(url: string): string {
  const counts = new Map<string, number>();
  for (const c of url) if ('()[]{}'.includes(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  let end = url.length;
  while (end > 0) {
    const c = url[end - 1] as string;
    if (TRAILING_CHARS.has(c)) {
      end--;
      continue;
    }
    const open = PAIRS[c];
    if (open === undefined || (counts.get(open) ?? 0) >= (counts.get(c) ?? 0)) break;
    counts.set(c, (counts.get(c) ?? 0) - 1);
    end--;
  }
  return url.slice(0, end);
}
