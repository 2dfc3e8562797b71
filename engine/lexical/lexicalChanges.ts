/**
 * Which lexical-index rows changed, for in-memory copies of the index (see liveLexicalIndex.ts).
 * The write path reports every document it (re)indexes; a copy re-reads those rows from SQLite
 * before its next search, so a rolled-back write simply re-reads the restored row. A report is a
 * Set insertion per live copy; with no copy built (no recall yet) it costs nothing.
 */
export interface LexicalListener {
  changed(doc: number): void;
}

const listeners = new Set<WeakRef<LexicalListener>>();

/** Registers a copy; it is dropped once garbage-collected (its store closed and released). */
export function listenForLexicalChanges(listener: LexicalListener): void {
  listeners.add(new WeakRef(listener));
}

/**
 * Called by indexMemory for every document it writes. Listeners do not know which database a
 * document belongs to, so every copy hears about every write in this process: re-reading an
 * unchanged row is harmless, and usually one store is open.
 */
export function noteLexicalChange(doc: number): void {
  for (const ref of listeners) {
    const listener = ref.deref();
    if (listener) listener.changed(doc);
    else listeners.delete(ref);
  }
}
