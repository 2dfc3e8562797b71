/**
 * Resolves on a later turn of the event loop (after its timers and I/O have had their go). Work
 * that follows a scan's last transaction awaits it, so the two never add up to one long task on
 * the extension host's thread, which every extension and the editor's requests share.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
