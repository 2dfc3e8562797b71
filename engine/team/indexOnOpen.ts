import type { Logger } from '../host';
import type { MemoryStore } from '../memory/memoryStore';
import { syncTeamFiles } from './teamIndex';

/**
 * Every clone indexes its team files when it opens the database: after a pull or a branch switch
 * made without a host running, the first command already sees the branch's team memories. A bad
 * file or a failed index is logged, never a reason not to open.
 */
export function indexTeamFiles(store: MemoryStore, root: string, logger: Logger): void {
  try {
    const result = syncTeamFiles(store, root);
    for (const { file, message } of result.errors) logger.warn(`team file not indexed: ${message}`, { file });
  } catch (error) {
    logger.warn('could not index the team files', { error: String(error) });
  }
}
