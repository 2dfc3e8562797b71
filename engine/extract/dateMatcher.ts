import { createMention } from './mention';
import type { Mention } from './mention';
import type { ScanContext } from './scanContext';
import { forEachMatch } from './regexScan';

/*
 * Absolute dates only: relative ones ("yesterday", "last week") need a reference time that the
 * text does not carry. The key is ISO 8601 at day precision (`2023-07-20`), or `2023-07` for a
 * month, or `--07-20` when the year is missing, so "20 July, 2023" and "July 20th 2023" merge.
 * A time in front ("8:56 pm on 20 July, 2023") is part of the mention but not of the key.
 */
const MONTH =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![a-z])';
const TIME = String.raw`\d{1,2}(?::\d{2}[ \t]*(?:[AaPp]\.?[Mm]\.?)?|[ \t]*[AaPp]\.?[Mm]\.?)`;
const ORDINAL = '(?:st|nd|rd|th)?';
const ISO_RE =
  /(?<![\w.-])(\d{4})([-/])(\d{2})\2(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])/g;
const DAY_MONTH_RE = new RegExp(
  String.raw`(?<![\w:])(?:${TIME}\s{1,4}on\s{1,4})?(?:(\d{1,2})${ORDINAL}(?:\s{1,4}of)?\s{1,4}${MONTH}\.?|${MONTH}\.?\s{1,4}(\d{1,2})${ORDINAL}(?![\d:]))(?:,?\s{1,4}(\d{4}))?(?!\w)`,
  'y',
);
const MONTH_YEAR_RE = new RegExp(String.raw`(?<!\w)${MONTH}\.?,?\s{1,4}(\d{4})(?!\w)`, 'y');
/** Where written dates are searched from: each month name. */
const MONTH_ANCHOR_RE = /(?<![A-Za-z])(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/g;
/** How far before its month a written date may start: "12:59 p.m. on 31st of " is 22 characters. */
const MAX_PREFIX = 26;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function matchDates(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  if (/\d{4}[-/]\d{2}/.test(text)) {
    forEachMatch(ISO_RE, text, (m) => {
      const key = isoKey(Number(m[1]), Number(m[3]), Number(m[4]));
      if (key !== undefined) out.push(createMention(m.index, m.index + m[0].length, 'date', key, key));
    });
  }
  matchWrittenDates(text, out);
}

/**
 * Tries the written forms at a few starts near each month name only: the first digit of each
 * number in the MAX_PREFIX characters before it, then the month itself.
 */
function matchWrittenDates(text: string, out: Mention[]): void {
  let done = 0;
  MONTH_ANCHOR_RE.lastIndex = 0;
  for (let a = MONTH_ANCHOR_RE.exec(text); a !== null; a = MONTH_ANCHOR_RE.exec(text)) {
    const month = a.index;
    if (month < done) continue;
    let matched = false;
    for (let p = Math.max(done, month - MAX_PREFIX); p <= month && !matched; p++) {
      if (p < month && !(isDigit(text, p) && !isDigit(text, p - 1))) continue;
      DAY_MONTH_RE.lastIndex = p;
      const m = DAY_MONTH_RE.exec(text);
      if (m === null) continue;
      matched = true;
      done = p + m[0].length;
      const key = isoKey(
        m[5] === undefined ? undefined : Number(m[5]),
        monthNumber(m[2] ?? m[3]),
        Number(m[1] ?? m[4]),
      );
      if (key !== undefined) out.push(createMention(p, done, 'date', key, key));
    }
    if (matched) continue;
    MONTH_YEAR_RE.lastIndex = month;
    const m = MONTH_YEAR_RE.exec(text);
    const year = Number(m?.[2]);
    const monthNo = monthNumber(m?.[1]);
    if (m === null || !validYear(year) || monthNo === undefined) continue;
    const key = `${year}-${pad(monthNo)}`;
    done = month + m[0].length;
    out.push(createMention(month, done, 'date', key, key));
  }
}

function isDigit(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code >= 48 && code <= 57;
}

function monthNumber(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  const index = MONTHS.indexOf(word.slice(0, 3).toLowerCase());
  return index === -1 ? undefined : index + 1;
}

function validYear(year: number): boolean {
  return year >= 1000 && year <= 2999;
}

function isoKey(year: number | undefined, month: number | undefined, day: number): string | undefined {
  if (month === undefined || month < 1 || month > 12) return undefined;
  if (day < 1 || day > (DAYS_IN_MONTH[month - 1] ?? 0)) return undefined;
  if (year === undefined) return `--${pad(month)}-${pad(day)}`;
  if (!validYear(year)) return undefined;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)))
    return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
