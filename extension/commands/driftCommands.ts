import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import type { DriftFinding } from '../driftReport';
import { reviewDriftFixes } from './driftReview';
import type { DriftConsent, DriftDecider, DriftReviewStep } from './driftReview';

/**
 * Decisions a caller passes instead of the QuickPick and the consent modal: 'apply' (tests)
 * accepts all, a person's memories included; a function answers each step; `{ decide, consent }`
 * answers the steps and the consent for a person's memories that "Accept all remaining" covers.
 */
function answersOf(arg: unknown): { decide?: DriftDecider; consent?: DriftConsent } {
  if (arg === 'apply')
    return { decide: () => Promise.resolve('acceptRest'), consent: () => Promise.resolve(true) };
  if (typeof arg === 'function') return { decide: (step) => Promise.resolve((arg as DriftDecider)(step)) };
  if (typeof arg === 'object' && arg !== null) {
    const { decide, consent } = arg as { decide?: unknown; consent?: unknown };
    return {
      ...(typeof decide === 'function'
        ? { decide: (step: DriftReviewStep) => Promise.resolve((decide as DriftDecider)(step)) }
        : {}),
      ...(typeof consent === 'function'
        ? {
            consent: (unseen: Parameters<DriftConsent>[0]) =>
              Promise.resolve((consent as DriftConsent)(unseen)),
          }
        : {}),
    };
  }
  return {};
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
    guardedCommand('engram.fixDrift', log, async (_arg?: unknown, decisions?: unknown) =>
      reviewDriftFixes(services, answersOf(decisions)),
    ),
    /** The Drift view's Fix…: the same review for the one memory of that row. */
    guardedCommand('engram.fixDriftMemory', log, async (arg?: unknown, decisions?: unknown) => {
      const only = findingMemory(arg);
      if (!only) throw new Error('Fix… needs a drifted memory: use it on a row of the Drift view');
      return reviewDriftFixes(services, { only, ...answersOf(decisions) });
    }),
  ];
}
