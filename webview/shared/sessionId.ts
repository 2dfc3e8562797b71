/**
 * Session ids as the agents write them (UUIDs, Cline's task numbers, `aider-2026-03-02T09:00:00`):
 * no spaces, slashes or control characters, at most 200 characters. A webview message naming a
 * session is refused unless its id has this shape.
 */
const SESSION_ID = /^[A-Za-z0-9][\w.:+-]{0,199}$/;

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}
