import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { Queryable } from './recallTables';

/**
 * A pool whose statements are named prepared statements: each connection parses and plans a text
 * once (PostgreSQL keeps the plan, generic once it costs no more than a custom one) and then
 * binds and executes it, instead of parsing and planning it on every call. Meant for the few
 * fixed texts recall runs on every call (pgLexicalSearch.ts); a text built per call would leave
 * one prepared statement per variant on each connection. The name is the text's hash, so two
 * texts never share one.
 */
export function namedStatements(pool: Pool): Queryable {
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      name = `engram_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    async query<R extends object>(text: string, values: unknown[] = []) {
      return pool.query<R>({ name: nameOf(text), text, values });
    },
  };
}
