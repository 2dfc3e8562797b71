import type { MemoryStore } from '../../engine/memory/memoryStore';
import type { EmbeddedText } from '../../engine/memory/novelty';
import type { RememberInput } from '../../engine/memory/types';

/**
 * Writes `inputs` as one batch that fails inside its transaction at input `at`, after the inputs
 * before it held their rows: that input's nearest neighbour by embedding, at restatement
 * similarity, is a memory that does not exist, so reading it throws. A failure of the store, not
 * of an input (which would be rejected alone): the whole batch must roll back.
 */
export function rememberFailingAt(store: MemoryStore, inputs: RememberInput[], at: number): void {
  const gone: EmbeddedText = { vector: new Float32Array(8), nearest: [{ memoryId: 'm_gone', score: 0.99 }] };
  store.rememberMany(
    inputs,
    {},
    inputs.map((_, i) => (i === at ? gone : undefined)),
  );
}
