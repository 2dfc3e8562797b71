import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/**
 * Entity weights accumulated from recalls: the "memory" of memory-biased PageRank. Each recall
 * adds weight to the entities of what it returned, per scope (`workspace`, `session:<id>`); old
 * weight decays with a half-life, so the bias follows what the developer is working on now.
 * Increments are buffered and written with the next write transaction, like read events.
 */
export const HALF_LIFE_MS: Record<'workspace' | 'session', number> = {
  workspace: 7 * 24 * 3600_000,
  session: 24 * 3600_000,
};

export function scopesFor(session: string | undefined): string[] {
  return session === undefined ? ['workspace'] : ['workspace', `session:${session}`];
}

export class EntityWeights {
  private pending = new Map<string, { scope: string; entityId: number; amount: number; at: number }>();

  note(scopes: readonly string[], entityIds: Iterable<number>, amount: number, at: number): void {
    for (const entityId of entityIds) {
      for (const scope of scopes) {
        const key = `${scope}\u0000${entityId}`;
        const entry = this.pending.get(key);
        if (entry) {
          entry.amount += amount;
          entry.at = at;
        } else this.pending.set(key, { scope, entityId, amount, at });
      }
    }
  }

  flush(tx: SqlWriter): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const { scope, entityId, amount, at } of entries) {
      const halfLife = scope.startsWith('session:') ? HALF_LIFE_MS.session : HALF_LIFE_MS.workspace;
      tx.run(
        'INSERT INTO entity_weights (scope, entity_id, weight, updated_at) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (scope, entity_id) DO UPDATE SET weight = weight * pow(0.5, max(0, excluded.updated_at - updated_at) / ?) + excluded.weight, updated_at = excluded.updated_at',
        [scope, entityId, amount, at, halfLife],
      );
    }
  }

  /** Current (decayed) weights of the given scopes, summed per entity, pending increments included. */
  read(reader: SqlReader, scopes: readonly string[], now: number, limit = 200): Map<number, number> {
    const weights = new Map<number, number>();
    for (const scope of scopes) {
      const halfLife = scope.startsWith('session:') ? HALF_LIFE_MS.session : HALF_LIFE_MS.workspace;
      for (const row of reader.all<{ entityId: number; weight: number }>(
        'SELECT entity_id AS entityId, weight * pow(0.5, max(0, ? - updated_at) / ?) AS weight FROM entity_weights WHERE scope = ? ORDER BY weight DESC LIMIT ?',
        [now, halfLife, scope, limit],
      )) {
        weights.set(row.entityId, (weights.get(row.entityId) ?? 0) + row.weight);
      }
    }
    for (const entry of this.pending.values()) {
      if (scopes.includes(entry.scope))
        weights.set(entry.entityId, (weights.get(entry.entityId) ?? 0) + entry.amount);
    }
    return weights;
  }
}
