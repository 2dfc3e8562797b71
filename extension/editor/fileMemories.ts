import { EngramError } from '../../engine/index';
import type { Memory } from '../../engine/index';
import type { EngineConnection } from '../engineConnection';

/**
 * The memories that mention a workspace file (through the entity graph's path entity), as the
 * CodeLens counts them and Show Memories About This File lists them: active, and not the scan's
 * own summaries of the code (they restate the file). A file no memory mentions has none.
 */
export async function memoriesAboutFile(engine: EngineConnection, file: string): Promise<Memory[]> {
  try {
    const related = await engine.call('related', { entity: file, hops: 1, limit: 100 });
    return related.memories
      .map((m) => m.memory)
      .filter((m) => m.status === 'active' && m.layer !== 'codebase');
  } catch (error) {
    if (EngramError.is(error, 'NOT_FOUND')) return [];
    throw error;
  }
}
