import type { MemoryStore } from '../memory/memoryStore';
import { rejection } from '../memory/rejection';
import type { EmbeddedText } from '../memory/novelty';
import type { Actor, RememberInput, RememberManyResult } from '../memory/types';
import type { BatchMemory } from './memoryParams';

/** The memories of a batch its schema accepted, in order (the ones to embed and to write). */
export function acceptedMemories(batch: readonly BatchMemory[]): RememberInput[] {
  // A loop: flatMap's array per memory cost more than the schema's parse of it.
  const accepted: RememberInput[] = [];
  for (const item of batch) if ('input' in item) accepted.push(item.input);
  return accepted;
}

/**
 * Writes the memories of a batch the schema accepted (the store checks each again against the
 * host's limits) and answers every memory of the batch at its own position: a memory the schema
 * rejected is answered with its line, and a rejection from the store gets the index it had in the
 * batch. `embedded` lines up with acceptedMemories(batch).
 */
export function rememberBatch(
  store: MemoryStore,
  batch: readonly BatchMemory[],
  actor: Actor,
  embedded: ReadonlyArray<EmbeddedText | undefined>,
): RememberManyResult[] {
  const written = store.rememberMany(acceptedMemories(batch), actor, embedded);
  let next = 0;
  return batch.map((item, index): RememberManyResult => {
    if ('error' in item) return rejection(index, { code: 'INVALID_INPUT', message: item.error });
    const result = written[next++]!;
    return result.outcome === 'rejected' ? { ...result, index } : result;
  });
}
