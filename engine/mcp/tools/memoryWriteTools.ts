import { z } from 'zod';
import { memoryLine, memoryView, memoryViewSchema } from '../memoryView';
import { defineTool } from '../toolDefinition';
import type { ToolDefinition, ToolHints } from '../toolDefinition';
import { DEFAULT_LIMITS } from '../../memory/limits';
import {
  ANNOTATE_PARAMS,
  EDIT_CHANGES,
  ID_PARAMS,
  INVALIDATE_PARAMS,
  REMEMBER_PARAMS,
} from '../../api/memoryParams';
import { conflictKeyField, contentField, contextField, timeField } from './fields';
import { negativeInput } from '../../memory/negativeKnowledge';
import type { RememberResult } from '../../memory/types';

const FULL_AND_CORE = ['full', 'core'] as const;
const memoryOutput = z.object({ memory: memoryViewSchema });

// The method's own fields and limits; text as agents write it, refused here when oversize.
const rememberInput = REMEMBER_PARAMS.pick({
  layer: true,
  kind: true,
  tags: true,
  importance: true,
  scope: true,
  critical: true,
  pinned: true,
}).extend({
  content: contentField,
  context: contextField.optional().describe('the source text the memory came from'),
  conflictKey: conflictKeyField.optional().describe('supersede the active memory with this key'),
  validFrom: timeField.optional().describe('when it became true, if not now (ISO 8601)'),
});

const rememberOutput = z.object({
  outcome: z.enum(['added', 'updated', 'unchanged', 'superseded']),
  memory: memoryViewSchema,
  superseded: z.array(z.string()),
  redacted: z.array(z.string()),
  merged: z
    .object({
      into: z.string(),
      previousContent: z.string(),
      similarity: z.number(),
      reason: z.string(),
    })
    .optional()
    .describe('outcome "updated": the memory this text was merged into, the wording it replaced, and why'),
});

function rememberAnswer(result: RememberResult) {
  const memory = memoryView(result.memory);
  const superseded = result.superseded.length ? `; superseded ${result.superseded.join(', ')}` : '';
  const merged = result.merged
    ? `; merged into ${result.merged.into}, replacing "${result.merged.previousContent}" (${result.merged.reason})`
    : '';
  return {
    structured: {
      outcome: result.outcome,
      memory,
      superseded: result.superseded,
      redacted: result.redacted,
      ...(result.merged ? { merged: result.merged } : {}),
    },
    text: `${result.outcome}: ${memoryLine(memory)}${superseded}${merged}`,
  };
}

const remember = defineTool({
  name: 'memory_remember',
  title: 'Remember',
  description:
    'Store a memory (a decision, convention, fact, error pattern, preference, procedure). Exact restatements are confirmed, not stored twice; a close restatement with the same numbers, names, paths and identifiers updates the memory it restates (outcome "updated", with `merged` naming it); a memory with the same conflictKey as an active one supersedes it (the old version is kept in history). Secrets are redacted.',
  group: 'memory',
  profiles: FULL_AND_CORE,
  // Restating a memory grows its confirmation count: a repeat is not free of effects.
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  input: () => rememberInput,
  output: () => rememberOutput,
  async run(args, context) {
    return rememberAnswer(await context.call('remember', args));
  },
});

/** Negative knowledge (memory/negativeKnowledge.ts): remember's write, always kind `negative`. */
const rememberNegative = defineTool({
  name: 'memory_remember_negative',
  title: 'Remember what does not exist',
  description:
    'Store negative knowledge: something that does NOT exist or must NOT be done in this project ("there is no Redis cache; sessions live in Postgres", "never run migrations from tests"). It is recalled when someone asks for that thing, marked "negative": true and prefixed NEGATIVE KNOWLEDGE, so no one builds on it. Same rules as memory_remember: restatements are confirmed, secrets redacted.',
  group: 'memory',
  profiles: ['full'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  input: () => rememberInput.omit({ kind: true }),
  output: () => rememberOutput,
  async run(args, context) {
    return rememberAnswer(await context.call('remember', negativeInput(args)));
  },
});

const edit = defineTool({
  name: 'memory_edit',
  title: 'Edit memory',
  description: 'Change a memory. Creates a new version; the old one stays in memory_history.',
  group: 'memory',
  profiles: FULL_AND_CORE,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  input: () =>
    ID_PARAMS.pick({ id: true }).extend({
      ...EDIT_CHANGES.partial().pick({
        tags: true,
        importance: true,
        kind: true,
        layer: true,
        critical: true,
      }).shape,
      content: contentField.optional(),
      context: contextField.nullable().optional(),
      conflictKey: conflictKeyField.nullable().optional(),
    }),
  output: () => memoryOutput,
  async run({ id, ...changes }, context) {
    const memory = memoryView(await context.call('edit', { id, changes }));
    return { structured: { memory }, text: `edited: ${memoryLine(memory)}` };
  },
});

/** Tools that take an id (and maybe one more field), call one method and answer with the memory. */
function statusTool(options: {
  name: string;
  title: string;
  description: string;
  method: 'forget' | 'restore' | 'archive' | 'pin' | 'unpin';
  verb: string;
  hints: ToolHints;
  profiles?: readonly ('full' | 'core')[];
}): ToolDefinition {
  return defineTool({
    name: options.name,
    title: options.title,
    description: options.description,
    group: 'memory',
    profiles: options.profiles ?? ['full'],
    hints: options.hints,
    input: () => ID_PARAMS.pick({ id: true }),
    output: () => memoryOutput,
    async run({ id }, context) {
      const memory = memoryView(await context.call(options.method, { id }));
      return { structured: { memory }, text: `${options.verb}: ${memoryLine(memory)}` };
    },
  });
}

const invalidate = defineTool({
  name: 'memory_invalidate',
  title: 'Invalidate memory',
  description:
    'Mark a memory as no longer true (with the reason and when it stopped being true). It leaves recall but stays in history.',
  group: 'memory',
  profiles: FULL_AND_CORE,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  input: () =>
    INVALIDATE_PARAMS.pick({ id: true }).extend({
      reason: z.string().min(1).max(2000).describe('why it is no longer true'),
      validTo: timeField.optional().describe('when it stopped being true (default now)'),
    }),
  output: () => memoryOutput,
  async run(args, context) {
    const memory = memoryView(await context.call('invalidate', args));
    return { structured: { memory }, text: `invalidated: ${memoryLine(memory)}` };
  },
});

const annotate = defineTool({
  name: 'memory_annotate',
  title: 'Annotate memory',
  description: 'Add a timestamped note to a memory without changing it.',
  group: 'memory',
  profiles: ['full'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  input: () =>
    ANNOTATE_PARAMS.pick({ id: true }).extend({
      text: z.string().min(1).max(DEFAULT_LIMITS.maxAnnotationChars).describe('the note'),
    }),
  output: () => z.object({ memoryId: z.string(), annotationId: z.string(), text: z.string() }),
  async run(args, context) {
    const note = await context.call('annotate', args);
    return {
      structured: { memoryId: note.memoryId, annotationId: note.id, text: note.text },
      text: `annotated ${note.memoryId}: ${note.text}`,
    };
  },
});

export const MEMORY_WRITE_TOOLS: ToolDefinition[] = [
  remember,
  rememberNegative,
  edit,
  annotate,
  invalidate,
  statusTool({
    name: 'memory_forget',
    title: 'Forget memory',
    description: 'Hide a memory everywhere (soft delete; memory_restore brings it back).',
    method: 'forget',
    verb: 'forgotten',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    profiles: FULL_AND_CORE,
  }),
  statusTool({
    name: 'memory_restore',
    title: 'Restore memory',
    description: 'Bring back a forgotten or archived memory.',
    method: 'restore',
    verb: 'restored',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  }),
  statusTool({
    name: 'memory_pin',
    title: 'Pin memory',
    description: 'Pin a memory: it leads every context block.',
    method: 'pin',
    verb: 'pinned',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  }),
  statusTool({
    name: 'memory_unpin',
    title: 'Unpin memory',
    description: 'Unpin a memory.',
    method: 'unpin',
    verb: 'unpinned',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  }),
];
