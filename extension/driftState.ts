import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import { DRIFT_METHOD, describeEvidence, readDriftReport } from './driftReport';
import type { DriftFinding, DriftReport } from './driftReport';
import { readDriftProposals } from './driftProposals';
import type { DriftProposal } from './driftProposals';

export const DRIFT_UNAVAILABLE = 'Drift checking is not available in this version of the Engram engine yet.';

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

  get available(): boolean {
    return this.engine.hasMethod(DRIFT_METHOD);
  }

  get last(): DriftReport | undefined {
    return this.report;
  }

  staleReason(memoryId: string): string | undefined {
    const f = this.byMemory.get(memoryId);
    if (!f) return undefined;
    const evidence = describeEvidence(f.evidence);
    return evidence ? `${f.reason} (${evidence})` : f.reason;
  }

  isStale(memoryId: string): boolean {
    return this.byMemory.has(memoryId);
  }

  /** Whether a check is running now (the in-host tests wait for the one a scan starts). */
  get checking(): boolean {
    return this.running > 0;
  }

  /**
   * Runs the checker; undefined when this engine has none. With `paths` (after a scan) only the
   * memories naming those files are re-checked, and their verdicts replace the earlier ones.
   */
  async check(paths?: string[]): Promise<DriftReport | undefined> {
    if (!vscode.workspace.isTrusted)
      throw new Error('Drift reads workspace files: trust this workspace first.');
    if (!this.available) return undefined;
    const incremental = paths !== undefined && this.report !== undefined;
    this.running++;
    let result: unknown;
    try {
      result = await this.engine.callIfAvailable(DRIFT_METHOD, incremental ? { paths, all: true } : {});
    } finally {
      this.running--;
    }
    const report = readDriftReport(result, Date.now());
    if (incremental) {
      for (const id of report.checked) this.byMemory.delete(id);
    } else {
      this.byMemory.clear();
    }
    for (const f of report.findings) this.byMemory.set(f.memoryId, f);
    this.report = {
      score: incremental ? this.report?.score : report.score,
      findings: [...this.byMemory.values()],
      checked: report.checked,
      checkedAt: report.checkedAt,
    };
    this.changed.fire();
    return this.report;
  }

  /** What a fix would change, memory by memory, for the user to review (nothing changes). */
  async proposals(): Promise<DriftProposal[] | undefined> {
    if (!vscode.workspace.isTrusted)
      throw new Error('Drift reads workspace files: trust this workspace first.');
    if (!this.available) return undefined;
    return readDriftProposals(await this.engine.callIfAvailable(DRIFT_METHOD, { fix: true, dryRun: true }));
  }

  /**
   * Applies the checker's repairs (old versions stay in each memory's history), then checks again.
   * With `ids` (the memories whose repair the user accepted) only those are repaired, a human's
   * included; without, every agent-written one is, and a human's only gets a review proposal.
   */
  async fix(ids?: readonly string[]): Promise<DriftReport | undefined> {
    if (!vscode.workspace.isTrusted)
      throw new Error('Drift reads workspace files: trust this workspace first.');
    if (!this.available) return undefined;
    const result = await this.engine.callIfAvailable(DRIFT_METHOD, {
      fix: true,
      ...(ids ? { ids: [...ids] } : {}),
    });
    const applied = readDriftReport(result, Date.now());
    await this.check();
    return applied;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
