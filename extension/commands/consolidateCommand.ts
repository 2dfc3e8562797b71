import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { consolidateWithModel } from '../../engine/index';
import type { Summariser } from '../../engine/index';
import { reportCounts, reportDocument, reportLine } from '../consolidationReport';
import type { ConsolidationReport } from '../consolidationReport';
import { languageModelSummariser } from '../languageModelSummariser';
import { readSettings } from '../settings';

/**
 * Engram: Consolidate Now, the "sleep" on demand (issue 21, sections 3 and 5): the lifecycle pass
 * (promotions, archive of what faded, peer cards), then consolidation of related and faded
 * episodes into summaries. The engine plans it off this thread (a worker past a size) and applies
 * it in short slices; here it runs under a progress notification.
 *
 * The plan comes first, with a way to read it: consolidation takes memories out of recall (they
 * stay in history), and its summaries can cost recall (docs/benchmarks.md, Lifecycle), so a
 * careful user wants to see what would be merged before it is. `'apply'` as the argument skips
 * the question (tests, keybindings). The summary after offers Undo (engram.undoConsolidation)
 * and the details as a read-only document.
 *
 * With `engram.lifecycle.summaries` at `model`, a VS Code language model writes the summaries
 * (extension/languageModelSummariser.ts; the engine checks each and keeps the extractive gist,
 * with the reason, when one fails or is unfit). Only this command asks a model: the timed
 * background run never does, whatever the setting (docs/lifecycle.md).
 */
export function registerConsolidateCommands(services: EngramServices): vscode.Disposable[] {
  const { engine, documents } = services;
  const showReport = async (report: ConsolidationReport) => {
    const name = report.dryRun ? 'plan' : 'run';
    const uri = documents.show(
      `/consolidation/${Date.now()}/consolidation-${name}.md`,
      reportDocument(report),
    );
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return uri.toString();
  };
  return [
    guardedCommand('engram.consolidateNow', services.log, async (arg) => {
      // Read once: the question says who writes the summaries, and the run does as it said.
      const settings = readSettings();
      const plan: ConsolidationReport = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Engram: planning consolidation' },
        async () => ({
          dryRun: true,
          lifecycle: await engine.call('lifecycle', { dryRun: true }),
          consolidation: await engine.call('consolidate', { dryRun: true }),
        }),
      );
      const counts = reportCounts(plan);
      if (counts.clusters + counts.promoted + counts.archived + counts.peerCards === 0) {
        void vscode.window.showInformationMessage('Engram: nothing to consolidate, promote or archive.');
        return plan;
      }
      const writer = settings.lifecycleSummaries === 'model' ? MODEL_WRITER : '';
      if (arg !== 'apply' && !(await confirmed(plan, writer, () => showReport(plan)))) return undefined;
      const done: ConsolidationReport = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Engram: consolidating' },
        async (progress) => {
          progress.report({ message: 'promoting and archiving' });
          const lifecycle = await engine.call('lifecycle', { dryRun: false });
          progress.report({ message: 'merging related memories' });
          const consolidation =
            settings.lifecycleSummaries === 'model'
              ? await consolidateWithModel(
                  (params) => engine.call('consolidate', params),
                  withProgressReports(
                    await languageModelSummariser(settings.lifecycleSummaryModel),
                    progress,
                  ),
                )
              : await engine.call('consolidate', { dryRun: false });
          return { dryRun: false, lifecycle, consolidation };
        },
      );
      void vscode.window
        .showInformationMessage(`Engram: ${reportLine(done)}.`, 'Undo', 'Show Details')
        .then((choice) => {
          if (choice === 'Undo') void vscode.commands.executeCommand('engram.undoConsolidation', done);
          else if (choice === 'Show Details') void showReport(done);
        });
      return done;
    }),
    /**
     * Undoes one Consolidate Now run: each summary's members back in recall (the engine's
     * `unconsolidate`), archived memories restored, promoted ones back in their layer.
     */
    guardedCommand('engram.undoConsolidation', services.log, async (report) => {
      if (!isReport(report) || report.dryRun) throw new Error('undo needs the result of a consolidation run');
      const restored: string[] = [];
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Engram: undoing the consolidation' },
        async () => {
          for (const id of report.consolidation.created)
            restored.push(...(await engine.call('unconsolidate', { id })).restored);
          for (const a of report.lifecycle.archived) await engine.call('restore', { id: a.memoryId });
          for (const p of report.lifecycle.promoted)
            await engine.call('edit', { id: p.memoryId, changes: { layer: p.from } });
        },
      );
      void vscode.window.showInformationMessage(
        `Engram: undone; ${restored.length + report.lifecycle.archived.length} memories are back in recall.`,
      );
      return { restored, unarchived: report.lifecycle.archived.map((a) => a.memoryId) };
    }),
  ];
}

/** What the question adds when a model writes the summaries: what it is sent. */
const MODEL_WRITER =
  ' A VS Code language model writes the summaries from the merged memories (secrets redacted): engram.lifecycle.summaries.';

/**
 * The model as Consolidate Now uses it: each question shows in the progress notification, since
 * a model may take seconds per cluster where the rest takes milliseconds.
 */
function withProgressReports(
  summariser: Summariser | { unavailable: string },
  progress: vscode.Progress<{ message?: string }>,
): Summariser | { unavailable: string } {
  if ('unavailable' in summariser) return summariser;
  let asked = 0;
  return {
    provider: summariser.provider,
    summarise: (request, signal) => {
      progress.report({ message: `asking the language model for summary ${++asked}` });
      return summariser.summarise(request, signal);
    },
  };
}

/** Asks before applying; "Show Plan" opens the plan and asks again. */
async function confirmed(
  plan: ConsolidationReport,
  writer: string,
  show: () => Promise<unknown>,
): Promise<boolean> {
  const question = `Engram: ${reportLine(plan)}? Merged and archived memories leave recall, stay in history, and Undo brings them back.${writer}`;
  let choice = await vscode.window.showInformationMessage(question, 'Consolidate', 'Show Plan');
  if (choice === 'Show Plan') {
    await show();
    choice = await vscode.window.showInformationMessage(question, 'Consolidate');
  }
  return choice === 'Consolidate';
}

function isReport(value: unknown): value is ConsolidationReport {
  const report = value as Partial<ConsolidationReport> | undefined;
  return (
    typeof report === 'object' &&
    report !== null &&
    typeof report.dryRun === 'boolean' &&
    Array.isArray(report.consolidation?.created) &&
    Array.isArray(report.lifecycle?.archived)
  );
}
