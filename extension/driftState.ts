import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import type { FixAction } from '../engine/index';
import { describeEvidence, readDriftReport } from './driftReport';
import type { DriftFinding, DriftReport } from './driftReport';
import { readDriftProposals } from './driftProposals';
import type { DriftProposal } from './driftProposals';

/**
 * The last drift report of this window, shared by the Drift view, the Memories view's warnings,
 * the status bar and the editor hints. Drift reads files, so it runs only in trusted workspaces.
 */
export class DriftState implements vscode.Disposable {
  private report: DriftReport | undefined;
  private readonly byMemory = new Map<string, DriftFinding>();
  private running = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly engine: EngineConnection) {}

  get last(): DriftReport | undefined {
    return this.report;
  }

  staleReason(memoryId: string): string | undefined {
    const f = this.byMemory.get(memoryId);
    if (!f) return undefined;
    const evidence = describeEvidence(f.evidence);
    return evidence ? `${f.reason} (${evidence})` : f.reason;
  }

  /** The last check's finding for a memory (its commit says since when it is stale). */
  findingFor(memoryId: string): DriftFinding | undefined {
    return this.byMemory.get(memoryId);
  }

  isStale(memoryId: string): boolean {
    return this.byMemory.has(memoryId);
  }

  /** Whether a check is running now (the in-host tests wait for the one a scan starts). */
  get checking(): boolean {
    return this.running > 0;
  }

  /** Runs the checker over every memory; its verdicts replace all earlier ones. */
  async check(): Promise<DriftReport> {
    requireTrust();
    this.running++;
    let report: DriftReport;
    try {
      report = readDriftReport(await this.engine.call('drift', {}), Date.now());
    } finally {
      this.running--;
    }
    this.byMemory.clear();
    for (const f of report.findings) this.byMemory.set(f.memoryId, f);
    this.report = { ...report, findings: [...this.byMemory.values()] };
    this.changed.fire();
    return this.report;
  }

  /**
   * Takes in a partial report (a scan's drift: the memories naming the paths it changed): their
   * verdicts replace the earlier ones, the others stand. Views hear of it only when a finding
   * changed, so a save that drifted nothing refreshes them once (for the scan), not twice.
   */
  merge(partial: DriftReport): DriftReport {
    const before = partial.checked.map((id) => this.byMemory.get(id));
    for (const id of partial.checked) this.byMemory.delete(id);
    for (const f of partial.findings) this.byMemory.set(f.memoryId, f);
    const after = partial.checked.map((id) => this.byMemory.get(id));
    const changed = JSON.stringify(before) !== JSON.stringify(after) || this.report === undefined;
    this.report = {
      // The workspace's score is the last full check's (a partial check sees too few memories).
      score: this.report?.score,
      findings: [...this.byMemory.values()],
      checked: partial.checked,
      checkedAt: partial.checkedAt,
    };
    if (changed) this.changed.fire();
    return this.report;
  }

  /** What a fix would change, memory by memory, for the user to review (nothing changes). */
  async proposals(): Promise<DriftProposal[]> {
    requireTrust();
    return readDriftProposals(await this.engine.call('drift', { fix: true, dryRun: true }));
  }

  /**
   * Applies the checker's repairs (old versions stay in each memory's history), then checks again.
   * With `ids` (the memories whose repair the user accepted) only those are repaired, a human's
   * included; without, every agent-written one is, and a human's only gets a review proposal.
   * Resolves to the repairs the engine made (reviews included).
   */
  async fix(ids?: readonly string[]): Promise<FixAction[]> {
    requireTrust();
    const result = await this.engine.call('drift', { fix: true, ...(ids ? { ids: [...ids] } : {}) });
    await this.check();
    return result.fix?.actions ?? [];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function requireTrust(): void {
  if (!vscode.workspace.isTrusted)
    throw new Error('Drift reads workspace files: trust this workspace first.');
}
