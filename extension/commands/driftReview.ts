import * as vscode from 'vscode';
import type { EngramServices } from './services';
import type { DriftProposal } from '../driftProposals';
import type { FixAction } from '../../engine/index';
import { VIEW_SCHEME, memoryUri } from '../memoryDocuments';
import { memoryTitle, plural, shortId } from '../memoryPresentation';

/** The user's answer for one memory; `acceptRest` / `skipRest` answer the remaining ones too. */
export type DriftDecision = 'accept' | 'skip' | 'acceptRest' | 'skipRest' | 'cancel';

export interface DriftReviewStep {
  proposal: DriftProposal;
  /** The memory's content now. */
  current: string;
  /** 0-based position in the review, and how many proposals it has. */
  index: number;
  total: number;
}

/** Answers one step: the review's QuickPick, or (in tests) decisions passed to the command. */
export type DriftDecider = (step: DriftReviewStep) => Promise<DriftDecision | undefined>;

/**
 * Asked when "Accept all remaining" would change memories a person wrote that the review has not
 * shown one by one: true changes them too, false leaves them. The modal names each of them.
 */
export type DriftConsent = (
  unseen: ReadonlyArray<{ proposal: DriftProposal; title: string }>,
) => Promise<boolean>;

export interface DriftReviewOutcome {
  accepted: string[];
  skipped: string[];
  cancelled: boolean;
  /** The applied repairs, when some were accepted. */
  applied?: FixAction[];
}

interface DecisionItem extends vscode.QuickPickItem {
  decision: DriftDecision;
}

function stepItems(step: DriftReviewStep): DecisionItem[] {
  const { proposal, index, total } = step;
  const remaining = total - index;
  const items: DecisionItem[] = [
    {
      label: '$(check) Accept',
      decision: 'accept',
      detail: `${proposal.needsConsent ? 'You wrote this memory: it changes only if you accept. ' : ''}${
        proposal.change === 'rewrite'
          ? 'Save the new wording as a new version; the old one stays in the history'
          : 'Mark this memory as no longer true; it stays in the history'
      }`,
    },
    { label: '$(arrow-right) Skip', decision: 'skip', detail: 'Leave this memory as it is' },
  ];
  if (remaining > 1)
    items.push(
      { label: `$(check-all) Accept all ${remaining} remaining`, decision: 'acceptRest' },
      {
        label: `$(debug-step-out) Skip all ${remaining} remaining`,
        decision: 'skipRest',
        detail: index > 0 ? 'Apply only what you accepted so far' : undefined,
      },
    );
  items.push({ label: '$(close) Cancel', decision: 'cancel', detail: 'Change no memory' });
  return items;
}

/** The interactive decider: a QuickPick that stays open while the user reads the diff beside it. */
const pickDecision: DriftDecider = (step) =>
  new Promise((resolve) => {
    const { proposal } = step;
    const pick = vscode.window.createQuickPick<DecisionItem>();
    const title = memoryTitle({ content: step.current || proposal.excerpt }, 60);
    pick.title = `Engram: fix drift (${step.index + 1} of ${step.total}): "${title}"`;
    const why = [proposal.reason, proposal.evidence.message ? `"${proposal.evidence.message}"` : '']
      .filter(Boolean)
      .join(' ');
    pick.placeholder =
      proposal.change === 'rewrite'
        ? `Rewrite as shown in the diff? ${why}`
        : `No longer true: invalidate it? ${why}`;
    pick.items = stepItems(step);
    pick.ignoreFocusOut = true;
    const open: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('go-to-file'),
      tooltip: `Open memory ${shortId(proposal.memoryId)}`,
    };
    pick.buttons = [open];
    let decided: DriftDecision | undefined;
    pick.onDidTriggerButton(() => {
      void vscode.window.showTextDocument(memoryUri(proposal.memoryId), {
        preview: true,
        preserveFocus: true,
        viewColumn: vscode.ViewColumn.Beside,
      });
    });
    pick.onDidAccept(() => {
      decided = pick.selectedItems[0]?.decision;
      pick.hide();
    });
    // Escape (or closing the pick) cancels: nothing is changed.
    pick.onDidHide(() => {
      pick.dispose();
      resolve(decided ?? 'cancel');
    });
    pick.show();
  });

/** The interactive consent: a modal that names every memory a person wrote that would change. */
const askConsent: DriftConsent = async (unseen) => {
  const names = unseen.map((u) => `"${u.title}"`).join(', ');
  const yes = unseen.length === 1 ? 'Change it too' : 'Change them too';
  const answer = await vscode.window.showWarningMessage(
    `Engram: "Accept all" also changes ${unseen.length === 1 ? 'a memory' : `${unseen.length} memories`} you wrote: ${names}. Change ${unseen.length === 1 ? 'it' : 'them'} too?`,
    { modal: true, detail: 'Otherwise they are left as they are; old versions always stay in the history.' },
    yes,
  );
  return answer === yes;
};

/** Shows a rewrite as a diff: the memory now (left) and after the repair (right). */
async function showRewrite(services: EngramServices, prefix: string, step: DriftReviewStep): Promise<void> {
  const { memoryId, proposedContent = '' } = step.proposal;
  const current = services.documents.show(`${prefix}${memoryId}.current.md`, `${step.current}\n`);
  const proposed = services.documents.show(`${prefix}${memoryId}.fixed.md`, `${proposedContent}\n`);
  await vscode.commands.executeCommand(
    'vscode.diff',
    current,
    proposed,
    `Drift fix: ${memoryTitle({ content: step.current }, 40)} (${shortId(memoryId)})`,
    { preview: true },
  );
}

/** Closes the diff tabs this review opened (under its own path prefix). */
async function closeDiffs(prefix: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter(
      (t) =>
        t.input instanceof vscode.TabInputTextDiff &&
        t.input.modified.scheme === VIEW_SCHEME &&
        t.input.modified.path.startsWith(prefix),
    );
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

let reviewing = false;

/**
 * Fix Drift, memory by memory: a dry run says what each drifted memory's repair would be; the
 * user sees each change (a diff for a rewrite, the reason and commit for an invalidation) and
 * accepts or skips it; then one `drift {fix, ids}` repairs exactly the accepted ones (a human's
 * memory included: accepting it is the consent; one that "Accept all remaining" covers unseen is
 * changed only after a confirmation that names it). Skipped memories are not touched. With `only`, just
 * that memory is reviewed (the Drift view's Fix…).
 */
export async function reviewDriftFixes(
  services: EngramServices,
  options: { only?: string; decide?: DriftDecider; consent?: DriftConsent } = {},
): Promise<DriftReviewOutcome | undefined> {
  const { drift, engine } = services;
  if (reviewing) {
    void vscode.window.showInformationMessage('Engram: a drift review is already open.');
    return undefined;
  }
  reviewing = true;
  const prefix = `/drift/${Date.now()}/`;
  try {
    const planned = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Engram: checking what drift fixes would change',
      },
      () => drift.proposals(),
    );
    const proposals = planned.filter((p) => options.only === undefined || p.memoryId === options.only);
    if (proposals.length === 0) {
      void vscode.window.showInformationMessage(
        options.only !== undefined
          ? 'Engram: no fix to propose for this memory: its drift needs a person to look (open it to see why).'
          : 'Engram: no drift to fix: no memory has a rewrite or invalidation to propose.',
      );
      return { accepted: [], skipped: [], cancelled: false };
    }
    const decide = options.decide ?? pickDecision;
    const accepted: string[] = [];
    const skipped: string[] = [];
    let rest: 'accept' | 'skip' | undefined;
    // A person's memories that "Accept all remaining" covers without the review showing them.
    const unseen: Array<{ proposal: DriftProposal; title: string }> = [];
    for (const [index, proposal] of proposals.entries()) {
      if (rest) {
        (rest === 'accept' ? accepted : skipped).push(proposal.memoryId);
        if (rest === 'accept' && proposal.needsConsent) {
          const { memory } = await engine.call('get', { id: proposal.memoryId, readOnly: true });
          unseen.push({ proposal, title: memoryTitle(memory, 60) });
        }
        continue;
      }
      const { memory } = await engine.call('get', { id: proposal.memoryId });
      const step: DriftReviewStep = { proposal, current: memory.content, index, total: proposals.length };
      // An invalidation has no diff: the last rewrite's diff must not stand beside its question.
      if (proposal.change === 'rewrite') await showRewrite(services, prefix, step);
      else await closeDiffs(prefix);
      const decision = (await decide(step)) ?? 'cancel';
      if (decision === 'cancel') {
        void vscode.window.showInformationMessage('Engram: drift fix cancelled; no memory was changed.');
        return { accepted: [], skipped: proposals.map((p) => p.memoryId), cancelled: true };
      }
      if (decision === 'acceptRest') rest = 'accept';
      if (decision === 'skipRest') rest = 'skip';
      (decision === 'accept' || decision === 'acceptRest' ? accepted : skipped).push(proposal.memoryId);
    }
    await closeDiffs(prefix);
    // Never rewrite a person's memory on a blanket answer: ask, naming each one.
    if (unseen.length > 0 && !(await (options.consent ?? askConsent)(unseen)))
      for (const { proposal } of unseen) {
        accepted.splice(accepted.indexOf(proposal.memoryId), 1);
        skipped.push(proposal.memoryId);
      }
    if (accepted.length === 0) {
      void vscode.window.showInformationMessage('Engram: every drift fix skipped; no memory was changed.');
      return { accepted, skipped, cancelled: false };
    }
    const applied = await drift.fix(accepted);
    const chosen = proposals.filter((p) => accepted.includes(p.memoryId));
    const rewritten = chosen.filter((p) => p.change === 'rewrite').length;
    const done = [
      rewritten > 0 ? `rewrote ${plural(rewritten, 'memory', 'memories')}` : '',
      chosen.length > rewritten
        ? `invalidated ${plural(chosen.length - rewritten, 'memory', 'memories')}`
        : '',
    ].filter(Boolean);
    void vscode.window.showInformationMessage(
      `Engram: ${done.join(' and ')}${skipped.length > 0 ? `, left ${skipped.length} as ${skipped.length === 1 ? 'it was' : 'they were'}` : ''}. Old versions stay in each memory's history.`,
    );
    return { accepted, skipped, cancelled: false, applied };
  } finally {
    await closeDiffs(prefix);
    reviewing = false;
  }
}
