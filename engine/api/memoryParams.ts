import { z } from 'zod';
import { KINDS, LAYERS, SCOPES, STATUSES, TRUST_LEVELS } from '../memory/types';
import type { RememberInput } from '../memory/types';
import type { EditInput } from '../memory/editPatch';
import { methodParams } from './defineMethod';
import { issueLine } from './parseParams';
import { idParam, requiredText, textList, timeParam } from './paramFields';

/**
 * The parameters of the methods on memories (methods.ts), the one place their shapes and fixed
 * limits live: the MCP tools pick their fields from these (engine/mcp/tools/memory*Tools.ts).
 * Limits a host configures (content and context length: memory/limits.ts) and what needs the
 * store (tag clean-up, secret redaction, conflict keys) stay with the store's write rules.
 */

const IMPORTANCE = 'must be a number from 0 to 1';
const MAX_TAGS = 32;

export const importanceParam = z
  .number(IMPORTANCE)
  .min(0, IMPORTANCE)
  .max(1, IMPORTANCE)
  .describe('importance from 0 to 1 (default 0.5)');
export const tagsParam = z
  .array(z.string('must be a list of text'), 'must be a list of text')
  .max(MAX_TAGS, `must hold at most ${MAX_TAGS} tags`)
  .describe('tags');
export const layerParam = z.enum(LAYERS).describe('memory layer');
export const kindParam = z.enum(KINDS).describe('memory kind');

const SOURCE_FIELDS = 'file, start, end, quoteHash, commit, conversation, url';
const sourceParam = z.strictObject(
  {
    file: z.string().optional(),
    start: z.number().optional(),
    end: z.number().optional(),
    quoteHash: z.string().optional(),
    commit: z.string().optional(),
    conversation: z.string().optional(),
    url: z.string().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has a field it does not know (known: ${SOURCE_FIELDS})`
        : 'must be an object like {"file": "src/a.ts"}',
  },
);

/** One memory to store: RememberInput, checked by shape; memory/validate.ts applies the rules. */
const rememberInput = z.object({
  content: z.string().describe('the memory text'),
  context: z.string().nullish().describe('the source text the memory came from'),
  layer: layerParam.optional(),
  kind: kindParam.optional(),
  tags: tagsParam.optional(),
  importance: importanceParam.optional(),
  critical: z.boolean().optional().describe('always put first in context blocks'),
  pinned: z.boolean().optional(),
  scope: z
    .enum(SCOPES)
    .optional()
    .describe('private: visible to this agent only; shared (default): everyone'),
  conflictKey: z.string().nullish().describe('supersede the active memory with this key'),
  source: sourceParam.optional(),
  validFrom: z
    .union([z.string(), z.number()])
    .optional()
    .describe('when it became true, if not now (ISO 8601)'),
  agent: z.string().nullish(),
  session: z.string().nullish(),
  trust: z.enum(TRUST_LEVELS).optional(),
  dedupe: z.boolean().optional(),
}) satisfies z.ZodType<RememberInput>;

export const REMEMBER_PARAMS = methodParams(rememberInput.shape);

/**
 * Memories one `rememberMany` call takes. A batch is one transaction, and the host serves no other
 * caller meanwhile: 10,000 memories are about 1.5 s of CPU (~150 us each, docs/benchmarks.md).
 */
export const MAX_BATCH_MEMORIES = 10_000;

/** A memory of a batch as its schema left it: the input, or the one line that rejects it. */
export type BatchMemory = { input: RememberInput } | { error: string };

/** One memory of a batch, checked alone: a bad one is that memory's rejection, not the call's error. */
const batchMemory = z.unknown().transform((value): BatchMemory => {
  const parsed = rememberInput.safeParse(value);
  if (parsed.success) return { input: parsed.data };
  return { error: issueLine(parsed.error, value, 'memory') ?? 'memory is invalid' };
});

/** The call is refused whole only when it is not a batch: not a list, or too long a one. */
export const REMEMBER_MANY_PARAMS = methodParams({
  memories: z
    .array(batchMemory, 'must be a list')
    .max(
      MAX_BATCH_MEMORIES,
      `must hold at most ${MAX_BATCH_MEMORIES} memories a call (write more in several calls)`,
    ),
});

export const ID_PARAMS = methodParams({ id: idParam });

/** An edit's changes (EditInput): any of these; null clears context and conflictKey. */
export const EDIT_CHANGES = z.object({
  content: rememberInput.shape.content,
  context: z.string().nullable(),
  tags: tagsParam,
  importance: importanceParam,
  kind: kindParam,
  layer: layerParam,
  critical: z.boolean(),
  conflictKey: z.string().nullable(),
});

export const EDIT_PARAMS = methodParams({
  id: idParam,
  changes: EDIT_CHANGES.partial().optional() satisfies z.ZodType<EditInput | undefined>,
});

export const ANNOTATE_PARAMS = methodParams({ id: idParam, text: requiredText.describe('the note') });

export const INVALIDATE_PARAMS = methodParams({
  id: idParam,
  reason: requiredText.describe('why it is no longer true'),
  validTo: timeParam.optional(),
});

export const LIST_PARAMS = methodParams({
  layer: layerParam.optional(),
  kind: kindParam.optional(),
  status: z
    .enum([...STATUSES, 'all'])
    .optional()
    .describe('default active'),
  tag: z.string().optional(),
  agent: z.string().optional(),
  session: z.string().optional(),
  pinned: z.boolean().optional(),
  /** clampLimit (memory/memoryQueries.ts) caps it at 10,000. */
  limit: z.number().optional(),
  offset: z.number().optional(),
});

export const AS_OF_PARAMS = methodParams({
  time: timeParam,
  axis: z.enum(['transaction', 'valid']).optional(),
  limit: z.number().optional(),
  layer: layerParam.optional(),
});

export const ENTITIES_PARAMS = methodParams({ query: z.string().optional(), limit: z.number().optional() });

export const RELATED_PARAMS = methodParams({
  entity: requiredText,
  hops: z.number().int('must be 1 to 4').min(1, 'must be 1 to 4').max(4, 'must be 1 to 4').optional(),
  limit: z.number().optional(),
});

export const MERGE_ENTITIES_PARAMS = methodParams({ from: requiredText, into: requiredText });

export const INJECTION_PARAMS = methodParams({ conversation: requiredText, ids: textList });
export const INJECTION_EVICT_PARAMS = methodParams({ conversation: requiredText, ids: textList.optional() });

export const TOUCH_SESSION_PARAMS = methodParams({ session: requiredText });

export const EXPORT_FORMATS = ['jsonl', 'md'] as const;
export const EXPORT_PARAMS = methodParams({
  format: z.enum(EXPORT_FORMATS).optional().describe('default jsonl'),
  file: z.string().optional(),
});

export const IMPORT_PARAMS = methodParams({
  from: z.enum(['engram', 'mcp-memory']).optional(),
  file: z.string().optional(),
  text: z.string().optional(),
});

export const NO_PARAMS = methodParams({});
