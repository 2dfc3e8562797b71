import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import { CaptureRunner } from './captureRunner';
import type { CaptureRunnerOptions, CaptureStores } from './captureRunner';
import { PROMPT_CHOICES, promptText, rememberAnswer, shouldAsk } from './capturePrompt';
import type { PromptChoice } from './capturePrompt';

/** How the prompt is shown: the real notification, or a test's stand-in. */
export type AskUser = (message: string, ...choices: PromptChoice[]) => Thenable<PromptChoice | undefined>;

/**
 * Capture in this window: on once the user enables it for the workspace (first-run prompt, the
 * command or the CLI: the setting is the engine's), then read by a CaptureRunner; a status item
 * says on or off and when it last read. Only in a trusted workspace with a folder.
 */
export class CaptureControl implements vscode.Disposable {
  readonly runner: CaptureRunner;
  private enabledNow: boolean | undefined;
  private readonly item = vscode.window.createStatusBarItem(
    'engram.capture',
    vscode.StatusBarAlignment.Left,
    9,
  );
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The prompt's text, once shown (tests read it). */
  promptShown: string | undefined;

  constructor(
    private readonly engine: Pick<EngineConnection, 'call'>,
    private readonly state: vscode.Memento,
    private readonly stores: () => CaptureStores,
    private readonly log: vscode.LogOutputChannel,
    options: CaptureRunnerOptions = {},
  ) {
    this.runner = new CaptureRunner(engine, stores, log, options);
    this.item.name = 'Engram Capture';
    this.item.command = 'engram.captureSessions';
    this.subscriptions.push(this.runner.onDidRun(() => this.render()));
  }

  get enabled(): boolean | undefined {
    return this.enabledNow;
  }

  get statusText(): string {
    return this.item.text;
  }

  /** After the engine opened: reads on if capture is on, else asks once if there is anything to read. */
  async start(ask: AskUser = (m, ...c) => vscode.window.showInformationMessage(m, ...c)): Promise<void> {
    const status = await this.engine.call('captureStatus', {});
    if (status.enabled) {
      this.enabledNow = true;
      this.render();
      return this.runner.start();
    }
    const { agents } = await this.engine.call('captureSources', this.stores());
    const names = agents.map((a) => a.agent);
    // Off, and nothing to capture nor ever switched: no item at all.
    if (names.length > 0 || status.changedAt !== null) {
      this.enabledNow = false;
      this.render();
    }
    if (!shouldAsk(this.state, status, names, Date.now())) return;
    this.promptShown = promptText(names);
    // Non-modal: the answer may come much later, or never (the notification is dismissed).
    void Promise.resolve(ask(this.promptShown, ...PROMPT_CHOICES)).then((choice) =>
      choice ? this.answer(choice) : undefined,
    );
  }

  async answer(choice: PromptChoice): Promise<void> {
    await rememberAnswer(this.state, choice, Date.now());
    if (choice === 'Enable') await this.setEnabled(true);
  }

  async setEnabled(on: boolean): Promise<void> {
    const status = await this.engine.call(on ? 'captureEnable' : 'captureDisable', {});
    this.enabledNow = status.enabled;
    this.log.info(`capture ${on ? 'enabled' : 'disabled'} for this workspace`);
    if (on) await this.runner.start();
    else this.runner.stop();
    this.render();
  }

  private render(): void {
    const last = this.runner.last;
    if (this.enabledNow === undefined) return this.item.hide();
    const when = last ? new Date(last.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '';
    this.item.text = this.enabledNow
      ? `$(record) Capture${when ? ` ${when}` : ''}`
      : '$(circle-slash) Capture';
    this.item.tooltip = this.enabledNow
      ? `Engram captures your agents' sessions in this workspace${last ? `; last read at ${when} (${last.records} new records)` : ''}. Click to turn off, read now or purge.`
      : "Engram does not capture your agents' sessions in this workspace. Click to turn it on.";
    this.item.accessibilityInformation = {
      label: this.enabledNow
        ? `Engram capture on${when ? `, last read at ${when}` : ''}`
        : 'Engram capture off',
      role: 'button',
    };
    this.item.show();
  }

  dispose(): void {
    this.runner.dispose();
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
