import os from 'node:os';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { EngineConnection, loadEngineModule } from './engineConnection';
import { CaptureControl } from './capture/captureControl';
import { registerCaptureCommand, registerTranscriptCommand } from './capture/captureCommand';
import { SessionTreeProvider } from './views/sessionTree';
import { outputLogger } from './outputLogger';
import { ENGINE_SETTINGS, readSettings } from './settings';
import { syncLifecycleSettings } from './lifecycleSettingsSync';
import { workspaceRoot } from './workspaceRoot';
import { DriftState } from './driftState';
import { ScanRunner } from './live/scanRunner';
import { watchWorkspace } from './live/workspaceWatchers';
import { watchTeamFiles } from './live/teamWatcher';
import { MemoryTreeProvider } from './views/memoryTree';
import { DriftTreeProvider } from './views/driftTree';
import { EngramStatusBar } from './statusBar';
import { TeamServerLink } from './teamServerLink';
import { TeamStatusItem } from './teamStatusItem';
import {
  EDIT_SCHEME,
  GeneratedDocumentProvider,
  MEMORY_SCHEME,
  MemoryFileSystem,
  VIEW_SCHEME,
} from './memoryDocuments';
import { MemoryEditFileSystem } from './memoryEditFileSystem';
import { registerCommands } from './commands/registerCommands';
import { engramChatHandler, registerChatParticipant } from './chat/chatParticipant';
import { registerLanguageModelTools } from './chat/languageModelTools';
import { registerMcpServerProvider } from './mcpServerProvider';
import { MemoryCodeLensProvider } from './editor/memoryCodeLens';
import { registerMemoryHover } from './editor/memoryHover';
import { followScansWithDrift } from './live/driftAfterScan';
import { registerTimelinePanel } from './webviews/timelinePanel';
import { registerAnalyticsPanel } from './webviews/analyticsPanel';
import { GraphPanel, registerGraphPanel } from './webviews/graphPanel';
import type { GraphPanelStatus } from './webviews/graphPanel';
import type { EngineActivity } from '../engine/index';

/** What activate returns: the in-host tests drive the extension through it. */
export interface EngramExtensionApi {
  engine: EngineConnection;
  drift: DriftState;
  memories: MemoryTreeProvider;
  scans: ScanRunner;
  statusBar: EngramStatusBar;
  /** The team server's status-bar item (Team: connected / offline (N queued) / token refused). */
  teamStatus: TeamStatusItem;
  /** The window's team server: its route (tests wait for its replica's background sync). */
  team: TeamServerLink;
  capture: CaptureControl;
  sessions: SessionTreeProvider;
  chatHandler: vscode.ChatRequestHandler;
  /** What the Graph panel last reported (open, loads, the last recall it lit). */
  graphStatus(): GraphPanelStatus;
  /** Main-thread milliseconds activate() took. */
  activationMs: number;
}

let active: EngramExtensionApi | undefined;

/**
 * Thin and synchronous: creates the views, commands and providers and returns. The engine opens on
 * a later tick (EngineConnection.start); anything that needs it waits for it with progress.
 */
export function activate(context: vscode.ExtensionContext): EngramExtensionApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Engram', { log: true });
  const root = workspaceRoot();
  const activity = new vscode.EventEmitter<EngineActivity>();
  const hooks = {
    onActivity: (a: EngineActivity) => activity.fire(a),
    logger: outputLogger(log),
    onScanProgress: (p: Parameters<ScanRunner['reportProgress']>[0]) => scans.reportProgress(p),
    onEmbeddingProgress: (p: { model: string; done: number; total: number }) =>
      log.debug(`embedding ${p.model}: ${p.done}/${p.total}`),
  };
  // The engine's own code loads with it, after activation (EngineConnection.start).
  const team = new TeamServerLink(
    context.secrets,
    (e, directory) =>
      new e.ReplicaThread(e.replicaThreadOptions(context.extensionPath, directory, hooks.logger)),
  );
  const engine = new EngineConnection(
    (e) => e.engineOptions(context.extensionPath, readSettings(), root, hooks),
    log,
    team,
  );
  const scans = new ScanRunner(engine, log);
  const drift = new DriftState(engine);
  const memories = new MemoryTreeProvider(engine, drift);
  const statusBar = new EngramStatusBar(engine, drift);
  const teamStatus = new TeamStatusItem(team, log);
  // The agents' stores are named by the engine bundle (loaded by then: capture starts once it is ready).
  const capture = new CaptureControl(
    engine,
    context.workspaceState,
    () => loadEngineModule().agentStores(process.env, os.homedir()),
    log,
  );
  const sessions = new SessionTreeProvider(engine);
  const documents = new GeneratedDocumentProvider();
  const editFileSystem = new MemoryEditFileSystem(engine, log);
  const services = {
    engine,
    drift,
    memories,
    scans,
    statusBar,
    team,
    teamStatus,
    documents,
    log,
    extensionPath: context.extensionPath,
  };
  const chatHandler = engramChatHandler({ engine, drift }, log);

  context.subscriptions.push(
    log,
    team,
    engine,
    teamStatus,
    scans,
    drift,
    memories,
    statusBar,
    capture,
    registerCaptureCommand(capture, engine, log, () => sessions.refresh()),
    sessions,
    vscode.window.createTreeView('engram.sessions', { treeDataProvider: sessions }),
    capture.runner.onDidRun(() => sessions.refresh()),
    registerTranscriptCommand(engine, documents, log),
    memories.createView(),
    vscode.window.createTreeView('engram.drift', { treeDataProvider: new DriftTreeProvider(drift) }),
    vscode.workspace.registerFileSystemProvider(MEMORY_SCHEME, new MemoryFileSystem(engine), {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    editFileSystem,
    vscode.workspace.registerFileSystemProvider(EDIT_SCHEME, editFileSystem, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, documents),
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, new MemoryCodeLensProvider(engine, drift)),
    ...registerMemoryHover(engine, drift),
    scans.onDidProgress((p) => statusBar.showScanProgress(p)),
    ...registerCommands(services),
    ...registerTimelinePanel(context.extensionUri, engine, log),
    ...registerAnalyticsPanel(context.extensionUri, engine, log),
    activity,
    // Writes by other processes (an MCP agent, the CLI, another window) refresh every view, as
    // this window's own do (this window's are marked own and have already refreshed them).
    activity.event((a) => a.type === 'write' && !a.own && engine.noteWriteElsewhere()),
    ...registerGraphPanel(context.extensionUri, engine, activity.event, log),
    registerChatParticipant({ engine, drift }, log, context.extensionUri),
    ...registerLanguageModelTools(engine, drift, log),
    registerMcpServerProvider(context.extensionPath, log),
    // The retention and archive settings, kept by the engine in the database: now and on change.
    syncLifecycleSettings(engine, log),
    ...followScansWithDrift(scans, drift, log),
    ...(root ? watchWorkspace(root, scans) : []),
    ...(root ? watchTeamFiles(root, engine, log) : []),
    // Trust granted later: reopen so the engine gets the workspace to scan, then scan it.
    vscode.workspace.onDidGrantWorkspaceTrust(
      () =>
        void engine.restart().then(() => {
          autoScan(scans);
          startCapture(capture, log);
        }),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (ENGINE_SETTINGS.some((s) => e.affectsConfiguration(s))) void engine.restart();
    }),
    // Other processes (the MCP bridge, the CLI) write too: re-read when the user comes back.
    vscode.window.onDidChangeWindowState(
      (s) => s.focused && engine.state === 'ready' && engine.notifyChanged(),
    ),
  );
  engine.start();
  const firstReady = engine.onDidChangeState((state) => {
    if (state !== 'ready') return;
    firstReady.dispose();
    void statusBar.refresh();
    autoScan(scans);
    startCapture(capture, log);
  });
  active = {
    engine,
    drift,
    memories,
    scans,
    statusBar,
    teamStatus,
    team,
    capture,
    sessions,
    chatHandler,
    graphStatus: () => GraphPanel.statusNow(),
    activationMs: performance.now() - started,
  };
  log.info(`activated in ${active.activationMs.toFixed(1)} ms (main thread)`);
  return active;
}

function autoScan(scans: ScanRunner): void {
  if (readSettings().autoScan && vscode.workspace.isTrusted && workspaceRoot()) scans.schedule('open');
}

/** Capture reads the agents' logs outside the folder: only for a trusted workspace with a folder. */
function startCapture(capture: CaptureControl, log: vscode.LogOutputChannel): void {
  if (!vscode.workspace.isTrusted || !workspaceRoot()) return;
  void capture.start().catch((error: unknown) => log.warn(`capture: ${String(error)}`));
}

/** Flushes the journal and releases the database lock, so a bridge or CLI can take over at once. */
export async function deactivate(): Promise<void> {
  const closing = active?.engine.close();
  active = undefined;
  await closing;
}
