import { invalidInput } from '../errors';

/**
 * Parses JSON Lines, calling `visit` with each non-empty line's object and its "line N" label.
 * The first malformed line rejects the whole input with a message naming it.
 */
export function forEachJsonObject(
  lines: readonly string[],
  visit: (record: Record<string, unknown>, where: string) => void,
): void {
  lines.forEach((raw, index) => {
    const where = `line ${index + 1}`;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalidInput(`${where} is not valid JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw invalidInput(`${where} is not a JSON object`);
    visit(value as Record<string, unknown>, where);
  });
}
