import * as vscode from 'vscode';
import type { ScanRunner } from './scanRunner';
import type { DriftState } from '../driftState';
import { readScanDrift } from '../driftReport';
import { readSettings } from '../settings';

/**
 * Each scan comes back with the drift of the memories naming what it changed (the engine checks
 * them, see engine/drift/scanDrift.ts): it goes into the drift state with no second call. The
 * window's first scan is followed by one full check, so the views know every memory's verdict.
 * With the auto-fix setting (off by default) the repairs are applied when something drifted.
 * Errors are logged: a background check never interrupts the user.
 */
export function followScansWithDrift(
  scans: ScanRunner,
  drift: DriftState,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    scans.onDidFinish((scan) => {
      if (!vscode.workspace.isTrusted) return;
      if (scan.drift.error !== undefined) log.warn(`drift after scan failed: ${scan.drift.error}`);
      void (async () => {
        try {
          let drifted: boolean;
          if (drift.last) {
            drift.merge(readScanDrift(scan.drift, Date.now()));
            drifted = scan.drift.memories.length > 0;
          } else {
            drifted = (await drift.check()).findings.length > 0;
          }
          if (readSettings().driftAutoFix && drifted) {
            const fixed = await drift.fix();
            log.info(`drift auto-fix applied ${fixed.length} repairs`);
          }
        } catch (error) {
          log.warn(`drift after scan failed: ${String(error)}`);
        }
      })();
    }),
  ];
}
