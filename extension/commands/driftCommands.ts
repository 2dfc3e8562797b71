import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { DRIFT_UNAVAILABLE } from '../driftState';
import type { DriftFinding } from '../driftReport';
import { describeEvidence } from '../driftReport';
import { memoryTitle } from '../memoryPresentation';

/** Shows the rewrite of one memory as a diff: the memory now (left) and after the repair (right). */
async function previewRewrite(services: EngramServices, finding: DriftFinding): Promise<void> {
  const { memory } = await services.engine.call('get', { id: finding.memoryId });
  const stamp = Date.now();
  const current = services.documents.show(`/drift/${stamp}/${memory.id}.current.md`, `${memory.content}\n`);
  const proposed = services.documents.show(
    `/drift/${stamp}/${memory.id}.fixed.md`,
    `${finding.proposedContent ?? ''}\n`,
  );
  await vscode.commands.executeCommand(
    'vscode.diff',
    current,
    proposed,
    `Engram drift fix: ${memoryTitle(memory, 40)}`,
  );
}

export function registerDriftCommands(services: EngramServices): vscode.Disposable[] {
  const { drift, log } = services;
  return [
    guardedCommand('engram.checkDrift', log, async () => {
      if (!drift.available) {
        void vscode.window.showInformationMessage(`Engram: ${DRIFT_UNAVAILABLE}`);
        return undefined;
      }
      const report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'Engram: checking memories against the code',
        },
        () => drift.check(),
      );
      if (report) {
        const stale = report.findings.length;
        void vscode.window.showInformationMessage(
          stale === 0
            ? 'Engram: no stale memories.'
            : `Engram: ${stale} stale ${stale === 1 ? 'memory' : 'memories'}${report.score === undefined ? '' : `, drift score ${Math.round(report.score)}`}.`,
        );
        if (stale > 0) await vscode.commands.executeCommand('engram.drift.focus');
      }
      return report;
    }),
    /**
     * Fix Drift: a dry run first; rewrites are previewed as diffs and applied only after the user
     * confirms. Without drift (or without a checker) it says so plainly.
     */
    guardedCommand('engram.fixDrift', log, async (arg?: unknown, preconfirmed?: unknown) => {
      if (!drift.available) {
        void vscode.window.showInformationMessage(`Engram: ${DRIFT_UNAVAILABLE}`);
        return undefined;
      }
      // From a Drift view row, that memory's rewrite is previewed first. The engine repairs every
      // drifted memory in one run, so the confirmation lists them all.
      const focus =
        typeof arg === 'object' && arg !== null && 'finding' in arg
          ? (arg as { finding: DriftFinding }).finding.memoryId
          : undefined;
      const plan = await drift.fix(true);
      const findings = [...(plan?.findings ?? [])].sort(
        (a, b) => Number(b.memoryId === focus) - Number(a.memoryId === focus),
      );
      if (findings.length === 0) {
        void vscode.window.showInformationMessage(
          'Engram: no drift to fix: every checked memory still matches the code.',
        );
        return plan;
      }
      for (const f of findings.filter((f) => f.proposedContent).slice(0, 3))
        await previewRewrite(services, f);
      const summary = findings
        .slice(0, 5)
        .map(
          (f) =>
            `• ${memoryTitle({ content: f.content || f.memoryId }, 50)}: ${f.repair ?? f.status} ${describeEvidence(f.evidence)}`,
        )
        .join('\n');
      // Callers that already asked the user (chat buttons, tests) pass 'apply'.
      const apply =
        preconfirmed === 'apply'
          ? 'Apply'
          : await vscode.window.showWarningMessage(
              `Engram: apply ${findings.length} drift ${findings.length === 1 ? 'fix' : 'fixes'}?`,
              { modal: true, detail: `${summary}\n\nOld versions are kept in each memory's history.` },
              'Apply',
            );
      if (apply !== 'Apply') return plan;
      const applied = await drift.fix(false);
      void vscode.window.showInformationMessage(
        `Engram: applied ${applied?.findings.length ?? findings.length} drift fixes.`,
      );
      return applied;
    }),
  ];
}
