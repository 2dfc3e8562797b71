/**
 * Timed background work where several processes serve one store (a PostgreSQL team store,
 * engine/pgStore): each process keeps its timer, and a run happens at most once per period
 * across them, in whichever process's timer comes first.
 */
export interface TimedRuns {
  /**
   * Runs `job` unless this store ran `name` less than `periodMs` ago (in any process); resolves
   * with the milliseconds until it is next due, so a process that skipped wakes when it is.
   */
  once(name: string, periodMs: number, job: () => Promise<void>): Promise<number>;
}
