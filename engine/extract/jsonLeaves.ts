/**
 * `value` with `fn` applied to every string in it, object keys included; the same object (not a
 * copy) when nothing changed, so a caller can tell cheaply whether to serialise it again.
 */
export function mapStrings(value: unknown, fn: (text: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const mapped = mapStrings(item, fn);
      if (mapped !== item) (copy ??= value.slice())[i] = mapped;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const mappedKey = fn(key);
      const mapped = mapStrings(item, fn);
      if (mappedKey !== key || mapped !== item) changed = true;
      return [mappedKey, mapped] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}
