import * as vscode from 'vscode';
import type { EngineActivity } from '../../engine/index';
import type { EngineConnection } from '../engineConnection';
import { memoryIdFrom } from '../commands/memoryArgument';
import { GRAPH_VIEW_TYPE, malformedReply, parseWebviewMessage } from '../../webview/graph/protocol';
import type {
  DataReply,
  EntityMatch,
  GraphData,
  GraphQuery,
  GraphSeed,
  HostToWebview,
  SearchReply,
  WebviewToHost,
} from '../../webview/graph/protocol';
import { GRAPH_BODY, GRAPH_CSS } from '../../webview/graph/page';
import { summaryLine } from '../../webview/shared/text';
import { openFileEntity, openMemoryBeside, openSymbolEntity } from './openEntity';
import { rawSummary, SinglePanel, singlePanelSerializer } from './singlePanel';
import type { SinglePanelKind } from './singlePanel';

/** What the Graph panel last reported, for the in-host tests and the log. */
export interface GraphPanelStatus {
  open: boolean;
  /** Data replies sent (ok or not). */
  loads: number;
  /** The last graph sent: how many seeds it started from (0: the overview) and its size. */
  lastLoad?: { seeds: number; nodes: number; edges: number };
  /** The last recall the webview lit: how many of the touched nodes were in view. */
  lastLit?: { query: string; lit: number; touched: number };
}

const GRAPH_PANEL: SinglePanelKind<WebviewToHost> = {
  viewType: GRAPH_VIEW_TYPE,
  title: 'Engram Graph',
  scope: 'graph',
  page: { css: GRAPH_CSS, body: GRAPH_BODY, script: 'graph.js' },
  parse: parseWebviewMessage,
};

/**
 * The Graph panel (one at a time, see SinglePanel). The webview asks for data (a neighbourhood or
 * the overview); the host answers from the engine, tells it when memories change and lights up
 * what each recall touched.
 */
export class GraphPanel extends SinglePanel<WebviewToHost, HostToWebview> {
  private static readonly status: GraphPanelStatus = { open: false, loads: 0 };

  static show(
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    activity: vscode.Event<EngineActivity>,
    log: vscode.LogOutputChannel,
    reveal: GraphSeed[] | null = null,
  ): GraphPanel {
    const shown = SinglePanel.revealOrCreate(
      GRAPH_PANEL,
      extensionUri,
      (panel) => new GraphPanel(panel, extensionUri, engine, activity, log, reveal),
    );
    if (shown.existing && reveal) void shown.panel.post({ type: 'graph/seed/DidReveal', seeds: reveal });
    return shown.panel;
  }

  static statusNow(): GraphPanelStatus {
    return { ...GraphPanel.status, open: SinglePanel.current(GRAPH_VIEW_TYPE) !== undefined };
  }

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly engine: EngineConnection,
    activity: vscode.Event<EngineActivity>,
    log: vscode.LogOutputChannel,
    private reveal: GraphSeed[] | null = null,
  ) {
    super(panel, extensionUri, GRAPH_PANEL, log);
    this.disposables.push(
      engine.onDidChangeMemories(() => void this.post({ type: 'graph/data/DidChange' })),
      activity((a) => this.onActivity(a)),
    );
  }

  /** A recall anywhere lights up what it touched (writes arrive through onDidChangeMemories). */
  private onActivity(activity: EngineActivity): void {
    if (activity.type !== 'recall') return;
    void this.post({
      type: 'graph/recall/DidRun',
      query: summaryLine(activity.query, 200),
      memoryIds: activity.memoryIds,
      entityIds: activity.entityIds,
      client: summaryLine(activity.client, 80),
    });
  }

  /** A malformed request still gets its one reply, saying what was wrong. */
  protected override async refuse(raw: unknown): Promise<void> {
    this.log.warn(`graph: refused a malformed message ${rawSummary(raw)}`);
    const reply = malformedReply(raw);
    if (reply) await this.post(reply);
  }

  protected async receive(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'graph/view/ready':
        await this.post({ type: 'graph/view/DidInit', reveal: this.reveal });
        this.reveal = null;
        return;
      case 'graph/data/get':
        return this.replyData(message.id, message.query);
      case 'graph/entities/search':
        return this.replySearch(message.id, message.text);
      case 'graph/memory/open':
        try {
          await openMemoryBeside(this.engine, message.memoryId);
        } catch (error) {
          void vscode.window.showWarningMessage(`Engram: could not open the memory: ${String(error)}`);
        }
        return;
      case 'graph/entity/open':
        if (message.entityType === 'file') await openFileEntity(message.name, this.log);
        else await openSymbolEntity(message.name, this.log);
        return;
      case 'graph/session/open':
        // The Sessions view's command, beside the panel so the graph stays in sight.
        await vscode.commands.executeCommand('engram.openSessionTranscript', message.sessionId, {
          beside: true,
        });
        return;
      case 'graph/recall/lit':
        GraphPanel.status.lastLit = { query: message.query, lit: message.lit, touched: message.touched };
        return;
    }
  }

  private async replyData(id: number, query: GraphQuery): Promise<void> {
    let reply: DataReply;
    try {
      const data = await this.load(query);
      GraphPanel.status.lastLoad = {
        seeds: data.seeds.length,
        nodes: data.nodes.length,
        edges: data.edges.length,
      };
      reply = { type: 'graph/data/reply', id, ok: true, data };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log.warn(`graph: loading failed: ${text}`);
      reply = { type: 'graph/data/reply', id, ok: false, error: summaryLine(text, 300) };
    }
    GraphPanel.status.loads++;
    await this.post(reply);
  }

  private async load(query: GraphQuery): Promise<GraphData> {
    const filters = {
      types: query.types,
      layers: query.layers,
      limit: query.limit,
      ...(query.sessions ? { sessions: true } : {}),
    };
    const data = query.seeds
      ? await this.engine.call('graphNeighbourhood', { ...filters, seeds: query.seeds, hops: query.hops })
      : await this.engine.call('graphOverview', filters);
    return data;
  }

  private async replySearch(id: number, text: string): Promise<void> {
    let reply: SearchReply;
    try {
      const found = await this.engine.call('entities', { query: text, limit: 20 });
      const entities: EntityMatch[] = found.map((e) => ({
        entityId: e.id,
        name: summaryLine(e.name, 120),
        type: e.type,
        memoryCount: e.memoryCount,
      }));
      reply = { type: 'graph/entities/reply', id, ok: true, entities };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = { type: 'graph/entities/reply', id, ok: false, error: summaryLine(message, 300) };
    }
    await this.post(reply);
  }

  static disposeCurrent(): void {
    SinglePanel.disposeOpen(GRAPH_VIEW_TYPE);
  }
}

/** The commands (Open Graph, Reveal in Graph) and the serializer that restores the panel after a reload. */
export function registerGraphPanel(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  activity: vscode.Event<EngineActivity>,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const open = (reveal: GraphSeed[] | null) => {
    try {
      return GraphPanel.show(extensionUri, engine, activity, log, reveal).panel.viewType;
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      log.error(`engram graph: ${text}`);
      void vscode.window.showErrorMessage(`Engram: ${text}`);
      return undefined;
    }
  };
  return [
    vscode.commands.registerCommand('engram.openGraph', () => open(null)),
    vscode.commands.registerCommand('engram.revealInGraph', async (arg: unknown) => {
      const memoryId = await memoryIdFrom(arg, engine, 'Reveal which memory in the graph?', [
        'active',
        'invalidated',
        'archived',
      ]);
      return memoryId ? open([{ memory: memoryId }]) : undefined;
    }),
    vscode.window.registerWebviewPanelSerializer(
      GRAPH_VIEW_TYPE,
      graphSerializer(extensionUri, engine, activity, log),
    ),
    { dispose: () => GraphPanel.disposeCurrent() },
  ];
}

/**
 * Brings the panel back after a window reload; the webview re-requests its data (its saved state
 * holds only what it was showing, never the data).
 */
export function graphSerializer(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  activity: vscode.Event<EngineActivity>,
  log: vscode.LogOutputChannel,
): vscode.WebviewPanelSerializer {
  return singlePanelSerializer(
    GRAPH_VIEW_TYPE,
    (panel) => new GraphPanel(panel, extensionUri, engine, activity, log),
  );
}
