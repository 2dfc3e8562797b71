import { commandTarget } from '../capture/commandRecoveries';

/**
 * When two lessons of different sessions teach the same thing (issue 21, section 3.6), decided by
 * rules a user can read, on the text capture wrote (engine/capture/sessionLessons.ts):
 * - a recovery ("`npm test` failed (exit 1); `TZ=UTC npm test` worked.") is the same as another
 *   when the failing command, its exit status and the command that worked are the same once
 *   normalised: `sudo` and quotes dropped, spaces collapsed, a word that is a path (has a `/` or a
 *   file extension) read as `<path>` and a number as `<n>`, so `npm test -- a.test.ts` and
 *   `npm test -- b.test.ts`, both fixed by adding `TZ=UTC`, are one pattern;
 * - a correction ("Correction: No, you used npm. Use pnpm instead of npm.") is the same as another
 *   when what to do instead (its last sentence) is the same, lower-cased and without punctuation.
 */
export type LessonRule = 'recovery' | 'correction';

export interface RecurringLesson {
  rule: LessonRule;
  /** What two lessons must share to be one pattern (the normalised form above). */
  key: string;
  /** That key as a reader sees it in a plan and in the pattern's context. */
  same: string;
  /**
   * The words a memory must hold (lower-cased, normalised) to say the same already: the failing
   * command's target and every word the fix added (else the normalised command that worked), or
   * the correction's instruction.
   */
  says: string[];
}

const RECOVERY = /^`(.+)` failed(?: \(exit (-?\d+)\))?; `(.+)` worked\.$/s;
const CORRECTION = /^Correction: (.+)$/s;
/** A word naming a file: a slash, or a name ending in an extension (`a.test.ts`, `go.mod`). */
const PATH_WORD = /\/|^[\w@.-]*\w\.[A-Za-z][\w]{0,7}$/;

export function recurringLesson(rule: LessonRule, content: string): RecurringLesson | undefined {
  if (rule === 'recovery') {
    const match = RECOVERY.exec(content.trim());
    if (!match) return undefined;
    const [failed, exit, worked] = [normalCommand(match[1]!), match[2] ?? '?', normalCommand(match[3]!)];
    const added = worked.split(' ').filter((w) => !failed.split(' ').includes(w));
    const target = commandTarget(failed);
    const says =
      added.length > 0 && target !== undefined ? [target, ...added] : [worked.replace(/ <(?:path|n)>/g, '')];
    return {
      rule,
      key: `${failed}\u0000${exit}\u0000${worked}`,
      same: `\`${failed}\` failed (exit ${exit}), then \`${worked}\` worked`,
      says: says.map((w) => w.toLowerCase()),
    };
  }
  const match = CORRECTION.exec(content.trim());
  if (!match) return undefined;
  const sentences = match[1]!.split(/(?<=[.!?;])\s+/);
  const fix = normalText(sentences[sentences.length - 1] ?? '');
  if (fix.length < 6) return undefined;
  return { rule, key: fix, same: `the correction "${fix}"`, says: [fix] };
}

/**
 * Whether a memory's text already says what the lesson teaches: every `says` part is in it, both
 * read as normalised text with paths and numbers as placeholders (so a pattern memory that quotes
 * `bash scripts/deploy.sh` says what a later `bash <path>` lesson teaches).
 */
export function saysAlready(content: string, lesson: RecurringLesson): boolean {
  const text = ` ${placeholders(normalText(content))} `;
  return lesson.says.every((part) => text.includes(` ${placeholders(normalText(part))} `));
}

function normalCommand(command: string): string {
  return placeholders(
    command
      .trim()
      .replace(/^sudo\s+/, '')
      .split(/\s+/)
      .map((word) => word.replace(/^['"]|['"]$/g, ''))
      .join(' '),
  );
}

/** Each word that is a number read as `<n>`, each path (not an option) as `<path>`. */
function placeholders(words: string): string {
  return words
    .split(' ')
    .map((word) =>
      /^\d+$/.test(word) ? '<n>' : !word.startsWith('-') && PATH_WORD.test(word) ? '<path>' : word,
    )
    .join(' ');
}

/** Lower-cased, quotes and backticks dropped, punctuation between words read as a space. */
function normalText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`'"\u2018\u2019\u201c\u201d]/g, '')
    .replace(/[^\p{L}\p{N}<>=./@_-]+/gu, ' ')
    .replace(/[.]+(?=\s|$)/g, '')
    .trim();
}
