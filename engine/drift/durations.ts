/**
 * Durations written in words in documentation ("30 seconds", "5 min", "500 ms"), compared with the
 * plain number a code declares for the same option. Code holds durations in milliseconds by
 * convention in JavaScript, and sometimes in the unit the option's name or docs use; a stated
 * duration agrees with a declared number when either reading gives the same time.
 */

/** Units as written after a number; the regular expression part used by the matcher. */
export const DURATION_UNITS = String.raw`milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h`;

const MS_PER_UNIT: ReadonlyArray<[RegExp, number]> = [
  [/^(?:milliseconds?|ms)$/, 1],
  [/^(?:seconds?|secs?|s)$/, 1_000],
  [/^(?:minutes?|mins?)$/, 60_000],
  [/^(?:hours?|hrs?|h)$/, 3_600_000],
];

export interface StatedDuration {
  amount: number;
  /** Milliseconds in one of the stated unit. */
  unitMs: number;
}

/** "30 seconds" -> 30 of 1,000 ms; undefined for anything that is not a number and a unit. */
export function statedDuration(value: string): StatedDuration | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(value.trim());
  if (!m) return undefined;
  const unit = (m[2] as string).toLowerCase();
  const found = MS_PER_UNIT.find(([re]) => re.test(unit));
  return found ? { amount: Number(m[1]), unitMs: found[1] } : undefined;
}

/** Whether a number the code declares is the stated duration, read in milliseconds or in its unit. */
export function sameDuration(declared: number, stated: StatedDuration): boolean {
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  return close(declared, stated.amount * stated.unitMs) || close(declared, stated.amount);
}
