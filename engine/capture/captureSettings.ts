import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/** Capture is off until enabled for this workspace: the setting lives in the workspace database. */
export function captureEnabled(r: SqlReader): boolean {
  return r.value<string>("SELECT value FROM capture_settings WHERE key = 'enabled'") === '1';
}

export function enabledSince(r: SqlReader): number | null {
  const at = r.value<string>("SELECT value FROM capture_settings WHERE key = 'changed_at'");
  return at === undefined ? null : Number(at);
}

export function setCaptureEnabled(tx: SqlWriter, enabled: boolean, now: number): void {
  tx.run("INSERT OR REPLACE INTO capture_settings (key, value) VALUES ('enabled', ?)", [enabled ? '1' : '0']);
  tx.run("INSERT OR REPLACE INTO capture_settings (key, value) VALUES ('changed_at', ?)", [String(now)]);
}

/**
 * Who writes a captured session's observations: `rules` (the default, no language model) or
 * `model` too (engine/capture/observations/): the user's opt-in, per workspace.
 */
export type ObservationMode = 'rules' | 'model';

export function observationMode(r: SqlReader): ObservationMode {
  return r.value<string>("SELECT value FROM capture_settings WHERE key = 'observations'") === 'model'
    ? 'model'
    : 'rules';
}

export function setObservationMode(tx: SqlWriter, mode: ObservationMode): void {
  tx.run("INSERT OR REPLACE INTO capture_settings (key, value) VALUES ('observations', ?)", [mode]);
}
