import { invalidInput } from '../errors';
import type { Memory } from './types';

/**
 * Negative knowledge: a memory that says something does not exist or must not be done ("there is
 * no Redis cache", "never call the billing API from tests"). It is a memory of kind `negative` in
 * the semantic layer (it does not decay), written by `remember --negative` and MCP
 * `memory_remember_negative`, and marked as such wherever a memory is shown, so an agent reading
 * a recall does not take "Redis cache" for a thing that exists.
 */
export const NEGATIVE_KIND = 'negative' as const;

/** The words every text surface puts before a negative memory's content (CLI, MCP, context, LM tools). */
export const NEGATIVE_PREFIX = 'NEGATIVE KNOWLEDGE: ';

/** What a negative memory means, for person-facing surfaces (chat), beside its kind "negative knowledge". */
export const NEGATIVE_LABEL = 'does not exist or must not be done';

export function isNegative(memory: Pick<Memory, 'kind'>): boolean {
  return memory.kind === NEGATIVE_KIND;
}

/** The content as text surfaces show it: negative memories lead with NEGATIVE_PREFIX. */
export function markedContent(memory: Pick<Memory, 'kind'>, content: string): string {
  return isNegative(memory) ? `${NEGATIVE_PREFIX}${content}` : content;
}

/**
 * A remember input made negative: kind `negative`, semantic unless a layer is given. A different
 * kind is refused rather than silently replaced. The prefix is shown, never stored: a content
 * pasted from a recall with it is stored without it.
 */
export function negativeInput<
  T extends { content: string; kind?: string | undefined; layer?: string | undefined },
>(
  input: T,
): Omit<T, 'kind' | 'layer'> & { kind: typeof NEGATIVE_KIND; layer: NonNullable<T['layer']> | 'semantic' } {
  if (input.kind !== undefined && input.kind !== NEGATIVE_KIND)
    throw invalidInput(`a negative memory has kind "negative"; got kind "${input.kind}"`);
  const content = input.content.startsWith(NEGATIVE_PREFIX)
    ? input.content.slice(NEGATIVE_PREFIX.length)
    : input.content;
  return { ...input, content, kind: NEGATIVE_KIND, layer: input.layer ?? 'semantic' };
}
