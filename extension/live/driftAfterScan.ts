import * as vscode from 'vscode';
import type { ScanRunner } from './scanRunner';
import type { DriftState } from '../driftState';
import { readSettings } from '../settings';

/**
 * After each scan, re-checks drift (the code changed under the memories); with the auto-fix
 * setting (off by default) also applies the repairs. Errors are logged: a background check never
 * interrupts the user.
 */
export function followScansWithDrift(
  scans: ScanRunner,
  drift: DriftState,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    scans.onDidFinish((scan) => {
      if (!vscode.workspace.isTrusted) return;
      const c = scan.changes;
      const paths = [...c.added, ...c.changed, ...c.deleted, ...c.renamed.flatMap((r) => [r.from, r.to])];
      // Nothing changed on disk: the last verdicts still hold.
      if (paths.length === 0 && drift.last) return;
      void (async () => {
        try {
          const report = await drift.check(paths);
          if (readSettings().driftAutoFix && report.findings.length > 0) {
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
