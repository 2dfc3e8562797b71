import type { SqlWriter } from '../store/sqlAccess';
import type { EventLedger } from './eventLedger';
import { currentMemory } from './memoryQueries';
import { reviseVersion } from './rows';
import { expireSessions } from './sessions';

/**
 * Ends the sessions past their expiry. A session that ended leaves its working notes as episodes
 * (the lifecycle's promotion rule, issue 21): what happened stays findable, and the lifecycle
 * archives it once it has faded.
 */
export function promoteExpiredWorkingMemory(tx: SqlWriter, now: number, ledger: EventLedger): void {
  for (const memoryId of expireSessions(tx, now)) {
    reviseVersion(tx, currentMemory(tx, memoryId), { layer: 'episodic' }, 'promoted', now);
    ledger.append(tx, now, {
      type: 'promote',
      memoryId,
      data: { from: 'working', to: 'episodic', reason: 'session ended' },
    });
  }
}
