/**
 * Polls `condition` until it returns a value other than undefined/false, instead of sleeping a
 * guessed time: a test waits exactly as long as the thing takes (and fails with `what` when it
 * never happens), on a loaded machine as on an idle one.
 */
export async function waitUntil<T>(
  condition: () => T | undefined | false,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
