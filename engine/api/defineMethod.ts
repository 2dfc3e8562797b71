import { z } from 'zod';
import type { EngineContext } from './engineContext';
import type { ResultRecord } from './requestRecords';

/**
 * One engine method: its parameters as a zod schema (parsed once, by the dispatcher, before `run`
 * sees them), whether it writes, and what it does. The result type is inferred from `run`, the
 * parameter type from the schema, so every host's `call` is typed by the same definition.
 * `write` marks methods that change the database: they are made exactly-once by request id.
 */
export interface MethodSpec<P extends z.ZodType = z.ZodType, R = unknown, Prepared = unknown> {
  params: P;
  write: boolean;
  /**
   * Async work a write needs before its transaction (recall, embeddings): transactions are
   * synchronous, so it runs first and its result is handed to `run`.
   */
  prepare?(engine: EngineContext, params: z.output<P>): Promise<Prepared>;
  run(engine: EngineContext, params: z.output<P>, prepared: Prepared): R;
  /**
   * Work outside the database once the method's transaction committed (a team memory's file).
   * A failure is logged and does not fail the call: the write it follows is already durable.
   */
  after?(engine: EngineContext, params: z.output<P>, result: Awaited<R>): Promise<void>;
  /** What a write keeps for a retried request, when not its whole result (see requestRecords.ts). */
  resultRecord?: ResultRecord<R>;
}

/** Types a method against its schema; the table keeps the types for `MethodParams` and `MethodResult`. */
export function defineMethod<P extends z.ZodType, R, Prepared = undefined>(
  spec: MethodSpec<P, R, Prepared>,
): MethodSpec<P, R, Prepared> {
  return spec;
}

/** Who is acting, sent by every host with every call. */
export const actorSchema = z.object(
  { agent: z.string().nullish(), session: z.string().nullish() },
  {
    error: 'must be an object {agent, session}',
  },
);

/**
 * The fields every host may add to any call: who is acting, and `readOnly` (an MCP read-only tool
 * promised to change nothing, so reads note no access). An object schema strips unknown fields,
 * so each method's schema starts from these.
 */
export function methodParams<S extends z.ZodRawShape>(shape: S) {
  return z.object({ actor: actorSchema.optional(), readOnly: z.boolean().optional(), ...shape });
}
