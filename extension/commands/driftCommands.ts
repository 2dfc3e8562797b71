import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import type { DriftFinding } from '../driftReport';
import { reviewDriftFixes } from './driftReview';
import type { DriftDecider } from './driftReview';

/** Decisions a caller passes instead of the QuickPick: 'apply' (tests, chat buttons) accepts all. */
function deciderOf(arg: unknown): DriftDecider | undefined {
  if (arg === 'apply') return () => Promise.resolve('acceptRest');
  if (typeof arg === 'function') return (step) => Promise.resolve((arg as DriftDecider)(step));
  return undefined;
}

/** The memory a Drift view row (or a caller passing an id) names. */
function findingMemory(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg !== '') return arg;
  if (typeof arg === 'object' && arg !== null && 'finding' in arg)
    return (arg as { finding: DriftFinding }).finding.memoryId;
  return undefined;
}

export function registerDriftCommands(services: EngramServices): vscode.Disposable[] {
  const { drift, log } = services;
  return [
    guardedCommand('engram.checkDrift', log, async () => {
      const report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'Engram: checking memories against the code',
        },
        () => drift.check(),
      );
      const stale = report.findings.length;
      void vscode.window.showInformationMessage(
        stale === 0
          ? 'Engram: no stale memories.'
          : `Engram: ${stale} stale ${stale === 1 ? 'memory' : 'memories'}${report.score === undefined ? '' : `, drift score ${Math.round(report.score)}`}.`,
      );
      if (stale > 0) await vscode.commands.executeCommand('engram.drift.focus');
      return report;
    }),
    /**
     * Fix Drift: every proposed rewrite or invalidation, reviewed memory by memory (see
     * driftReview.ts). The second argument may carry the decisions (tests: a function per step).
     */
    guardedCommand('engram.fixDrift', log, async (_arg?: unknown, decisions?: unknown) => {
      const decide = deciderOf(decisions);
      return reviewDriftFixes(services, decide ? { decide } : {});
    }),
    /** The Drift view's Fix…: the same review for the one memory of that row. */
    guardedCommand('engram.fixDriftMemory', log, async (arg?: unknown, decisions?: unknown) => {
      const only = findingMemory(arg);
      if (!only) throw new Error('Fix… needs a drifted memory: use it on a row of the Drift view');
      const decide = deciderOf(decisions);
      return reviewDriftFixes(services, { only, ...(decide ? { decide } : {}) });
    }),
  ];
}
