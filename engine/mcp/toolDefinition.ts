import type { z } from 'zod';
import type { MethodName, MethodParams, MethodResult } from '../api/methods';
import type { Summariser } from '../lifecycle/summariser';
import type { Profile } from './profiles';

/** What a tool can do with the engine, on behalf of the connected client. */
export interface ToolContext {
  /** Calls an engine method with the client's actor ({agent, session}) added. */
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>>;
  /**
   * The language model consolidation may ask for summaries (engine/lifecycle/summariser.ts): the
   * endpoint the bridge's environment configures (ENGRAM_SUMMARY_URL), else the client's own
   * through MCP sampling when it declared that capability; otherwise why there is none.
   */
  summariser(): Summariser | { unavailable: string };
  /** The bridge's own state for stats: role, profile, database. */
  readonly bridge: { role: string; profile: Profile; database: string };
}

export interface ToolOutput<O> {
  /** The `structuredContent`, validated against the output schema. */
  structured: O;
  /** The same result for a reader: what clients without structured output show the model. */
  text: string;
}

/** Honest hints: readOnly (changes nothing), destructive (hides or ends memories), idempotent (a repeat changes nothing more). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

/** The tool families: memory, the codebase layer (scan, search, repo map), drift, and the official memory server's. */
export type ToolGroup = 'memory' | 'code' | 'drift' | 'compat';

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  group: ToolGroup;
  profiles: readonly Profile[];
  hints: ToolHints;
  input: I;
  output: O;
  run(args: z.output<I>, context: ToolContext): Promise<ToolOutput<z.input<O>>>;
}

/** A tool as written: its schemas as functions that build them. */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> extends Omit<
  ToolDefinition<I, O>,
  'input' | 'output'
> {
  input: () => I;
  output: () => O;
}

/**
 * Types a tool against its schemas, then erases them so the registry can hold every tool in one
 * list. The schemas are built on first use: a bridge's process built every tool's at load (zod
 * objects, ~22 ms of CPU before it answered anything), and a call needs only its own tool's.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
): ToolDefinition {
  let input: I | undefined;
  let output: O | undefined;
  const tool: ToolDefinition<I, O> = {
    ...spec,
    get input() {
      return (input ??= spec.input());
    },
    get output() {
      return (output ??= spec.output());
    },
  };
  return tool;
}

export const READ_ONLY: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
