import type { Database, Statement } from 'sql.js';
import { sqlModuleOf } from './sqlite';
import type { SqlValue } from './statementLog';

/**
 * Binds long texts to a sql.js statement with Node's native UTF-8 encoder instead of sql.js's.
 * sql.js encodes every bound string in JavaScript, one code point at a time, and measures it twice
 * (stringToNewUTF8, then lengthBytesUTF8 again for sqlite3_bind_text): a capture ingest binds each
 * record's whole text (kilobytes to megabytes) and that encoding was a fifth of its CPU. Here the
 * text is written into a scratch buffer in the module's memory by `Buffer.write` and bound with
 * SQLITE_TRANSIENT (SQLite copies it before the call returns, so the buffer is reused).
 *
 * SQLite stores the same bytes either way for a well-formed string. A string with a lone surrogate
 * (a text cut inside a surrogate pair) is left to sql.js, whose encoder writes the surrogate's own
 * three bytes where Node's writes U+FFFD: what was stored before is stored still.
 */

/** sql.js 1.16's exports used here: present on its module object, missing from its typings. */
interface BindExports {
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _sqlite3_bind_text(
    statement: number,
    index: number,
    text: number,
    bytes: number,
    destructor: number,
  ): number;
  _sqlite3_sql(statement: number): number;
  UTF8ToString(pointer: number, maxBytes?: number): string;
}
const NEEDED: Array<keyof BindExports> = [
  '_malloc',
  '_free',
  '_sqlite3_bind_text',
  '_sqlite3_sql',
  'UTF8ToString',
];

/** SQLite copies the text before sqlite3_bind_text returns. */
const SQLITE_TRANSIENT = -1;
/**
 * Shorter strings are left to sql.js: its encoder is quick on a few characters, and the native
 * path adds a well-formedness check and a call into the module per string.
 */
export const NATIVE_TEXT_LENGTH = 64;
/** A scratch buffer up to this size is kept for the next bind; a larger one is freed at once. */
const KEPT_SCRATCH_BYTES = 4 * 1024 * 1024;

const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

let nativeBinds = 0;
/** Texts bound natively so far in this process (for tests: the fast path is taken). */
export function nativeTextBinds(): number {
  return nativeBinds;
}

export class TextBinder {
  private scratch = 0;
  private capacity = 0;
  private view: Buffer | undefined;

  private constructor(
    private readonly sql: BindExports,
    private readonly memory: WebAssembly.Memory,
    /** The own property of sql.js's Statement that holds the sqlite3_stmt pointer (its name is minified). */
    private readonly pointerKey: string,
  ) {}

  /**
   * A binder for `db`'s statements, or undefined when this sql.js lacks what it needs (then
   * sql.js binds everything, as before). `probe` is one of the database's prepared statements.
   */
  static of(db: Database, probe: Statement): TextBinder | undefined {
    const module = sqlModuleOf(db);
    if (!module) return undefined;
    const sql = module.sql as unknown as BindExports;
    if (NEEDED.some((key) => typeof sql[key] !== 'function')) return undefined;
    const key = pointerKey(sql, module.memory, probe);
    return key === undefined ? undefined : new TextBinder(sql, module.memory, key);
  }

  /** statement.bind(params), with the long well-formed texts encoded natively. */
  bind(statement: Statement, params: readonly SqlValue[]): void {
    let placeholders: SqlValue[] | undefined;
    for (let i = 0; i < params.length; i++) {
      const value = params[i];
      if (typeof value === 'string' && value.length >= NATIVE_TEXT_LENGTH && isWellFormed(value)) {
        (placeholders ??= params.slice())[i] = null;
      }
    }
    if (placeholders === undefined) {
      statement.bind(params as SqlValue[]);
      return;
    }
    // sql.js resets the statement and binds the rest; a null holds each long text's place.
    statement.bind(placeholders);
    const pointer = (statement as unknown as Record<string, number>)[this.pointerKey] as number;
    for (let i = 0; i < params.length; i++) {
      if (placeholders[i] === params[i]) continue;
      if (!this.bindText(pointer, i + 1, params[i] as string)) {
        // SQLite refused (it never has for a parameter sql.js accepted): let sql.js bind and report it.
        statement.bind(params as SqlValue[]);
        return;
      }
    }
  }

  private bindText(pointer: number, index: number, text: string): boolean {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
    const needed = text.length * 3;
    let at = this.scratch;
    let view = this.view;
    if (needed > this.capacity) {
      at = this.sql._malloc(needed);
      if (at === 0) return false;
      if (needed <= KEPT_SCRATCH_BYTES) {
        if (this.scratch !== 0) this.sql._free(this.scratch);
        this.scratch = at;
        this.capacity = needed;
      }
      view = undefined;
    }
    // The module's memory grows under a malloc (here or in SQLite): a view of the old one is detached.
    if (view === undefined || view.buffer.byteLength === 0) {
      view = Buffer.from(this.memory.buffer, at, needed > this.capacity ? needed : this.capacity);
      if (at === this.scratch) this.view = view;
    }
    const bytes = view.write(text, 0, 'utf8');
    const ok = this.sql._sqlite3_bind_text(pointer, index, at, bytes, SQLITE_TRANSIENT) === 0;
    if (at !== this.scratch) this.sql._free(at);
    if (ok) nativeBinds++;
    return ok;
  }
}

/**
 * The Statement property holding its sqlite3_stmt pointer: the one number whose statement's SQL,
 * as SQLite gives it back, is the probe's. Only numbers that can be an address in the module's
 * memory are tried.
 */
function pointerKey(sql: BindExports, memory: WebAssembly.Memory, probe: Statement): string | undefined {
  const expected = probe.getSQL();
  const size = memory.buffer.byteLength;
  for (const [key, value] of Object.entries(probe)) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1024 || value >= size) continue;
    const text = sql._sqlite3_sql(value);
    if (text > 0 && text < size && sql.UTF8ToString(text, Buffer.byteLength(expected) + 1) === expected) {
      return key;
    }
  }
  return undefined;
}
