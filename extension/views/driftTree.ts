import * as vscode from 'vscode';
import type { DriftState } from '../driftState';
import type { DriftFinding } from '../driftReport';
import { describeEvidence } from '../driftReport';
import { memoryTitle } from '../memoryPresentation';

export type DriftTreeNode = { type: 'finding'; finding: DriftFinding } | { type: 'message'; text: string };

/** The Drift view: memories the last check found stale, with the commit and date that made them so. */
export class DriftTreeProvider implements vscode.TreeDataProvider<DriftTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly drift: DriftState) {
    this.subscription = drift.onDidChange(() => this.changed.fire(undefined));
  }

  getTreeItem(node: DriftTreeNode): vscode.TreeItem {
    if (node.type === 'message') return new vscode.TreeItem(node.text);
    const f = node.finding;
    const item = new vscode.TreeItem(memoryTitle({ content: f.content || f.memoryId }));
    item.id = `drift:${f.memoryId}`;
    // "stale since 1a2b3c4 · moved to src/x.ts": what happened, in words; the reason is in the tooltip.
    const what = f.evidence.target ? `moved to ${f.evidence.target}` : (f.evidence.message ?? f.reason);
    const since = f.evidence.commit ? ` since ${f.evidence.commit.slice(0, 7)}` : '';
    item.description = `${f.status}${since} · ${what}`;
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    const tooltip = new vscode.MarkdownString(`**${f.status}**\n\n`);
    tooltip.appendText(f.reason);
    const evidence = describeEvidence(f.evidence);
    if (evidence) tooltip.appendMarkdown('\n\n').appendText(evidence);
    tooltip.appendMarkdown(`\n\nid \`${f.memoryId}\``);
    item.tooltip = tooltip;
    // Fix… is offered where the checker suggests a change to accept; a stale claim with no
    // repair needs a person, so that row's inline action is Edit Memory (package.json menus).
    const fixable = f.repair === 'rewrite' || f.repair === 'invalidate';
    item.contextValue = fixable ? 'driftFinding.fixable' : 'driftFinding';
    item.command = { command: 'engram.openMemory', title: 'Open Memory', arguments: [f.memoryId] };
    return item;
  }

  getChildren(node?: DriftTreeNode): DriftTreeNode[] {
    if (node) return [];
    // Untrusted: no rows, so the view shows its welcome, which says why (package.json viewsWelcome).
    if (!vscode.workspace.isTrusted) return [];
    const report = this.drift.last;
    if (!report) return [];
    if (report.findings.length === 0) return [{ type: 'message', text: 'No stale memories.' }];
    return report.findings.map((finding) => ({ type: 'finding', finding }));
  }

  dispose(): void {
    this.changed.dispose();
    this.subscription.dispose();
  }
}
