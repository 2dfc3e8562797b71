import * as vscode from 'vscode';
import { ENGRAM_ICON } from '../packageAssets';
import type { EngineActivity } from '../../engine/api/engineActivity';
import type { EngineConnection } from '../engineConnection';
import { memoryIdFrom } from '../commands/memoryArgument';
import { GRAPH_VIEW_TYPE, malformedRequestId, parseWebviewMessage } from '../../webview/graph/protocol';
import type {
  DataReply,
  EntityMatch,
  GraphData,
  GraphQuery,
  GraphSeed,
  HostToWebview,
  SearchReply,
} from '../../webview/graph/protocol';
import { summaryLine } from '../../webview/graph/text';
import { graphHtml, graphWebviewOptions } from './graphHtml';
import { openFileEntity, openMemoryBeside, openSymbolEntity } from './openEntity';

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

/**
 * The Graph panel: one at a time, revealed again when asked twice, restored after a reload by its
 * serializer. The webview asks for data (a neighbourhood or the overview); the host answers from
 * the engine, tells it when memories change and lights up what each recall touched.
 */
export class GraphPanel implements vscode.Disposable {
  private static current: GraphPanel | undefined;
  private static readonly status: GraphPanelStatus = { open: false, loads: 0 };
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  static show(
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    activity: vscode.Event<EngineActivity>,
    log: vscode.LogOutputChannel,
    reveal: GraphSeed[] | null = null,
  ): GraphPanel {
    const current = GraphPanel.current;
    if (current) {
      current.panel.reveal();
      if (reveal) void current.post({ type: 'graph/seed/DidReveal', seeds: reveal });
      return current;
    }
    const panel = vscode.window.createWebviewPanel(
      GRAPH_VIEW_TYPE,
      'Engram Graph',
      vscode.ViewColumn.Active,
      graphWebviewOptions(extensionUri),
    );
    return new GraphPanel(panel, extensionUri, engine, activity, log, reveal);
  }

  static statusNow(): GraphPanelStatus {
    return { ...GraphPanel.status, open: GraphPanel.current !== undefined };
  }

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly engine: EngineConnection,
    activity: vscode.Event<EngineActivity>,
    private readonly log: vscode.LogOutputChannel,
    private reveal: GraphSeed[] | null = null,
  ) {
    GraphPanel.current = this;
    panel.webview.options = graphWebviewOptions(extensionUri);
    panel.webview.html = graphHtml(panel.webview, extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, ...ENGRAM_ICON);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
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

  private async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      const request = malformedRequestId(raw);
      this.log.warn(`graph: refused a malformed message ${summaryLine(JSON.stringify(raw) ?? '', 200)}`);
      // A request still gets its one reply, saying what was wrong.
      if (request?.type === 'graph/data/get')
        await this.post({
          type: 'graph/data/reply',
          id: request.id,
          ok: false,
          error: 'malformed graph query',
        });
      if (request?.type === 'graph/entities/search')
        await this.post({
          type: 'graph/entities/reply',
          id: request.id,
          ok: false,
          error: 'malformed search',
        });
      return;
    }
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
    const filters = { types: query.types, layers: query.layers, limit: query.limit };
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

  private async post(message: HostToWebview): Promise<void> {
    try {
      await this.panel.webview.postMessage(message);
    } catch (error) {
      this.log.warn(`graph: could not post ${message.type}: ${String(error)}`);
    }
  }

  static disposeCurrent(): void {
    GraphPanel.current?.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (GraphPanel.current === this) GraphPanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
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
 * Brings the panel back after a window reload: VS Code hands over a bare panel of our view type;
 * it gets the page, its CSP and options again, and the webview re-requests its data (its saved
 * state holds only what it was showing, never the data).
 */
export function graphSerializer(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  activity: vscode.Event<EngineActivity>,
  log: vscode.LogOutputChannel,
): vscode.WebviewPanelSerializer {
  return {
    deserializeWebviewPanel: (panel: vscode.WebviewPanel) => {
      GraphPanel.disposeCurrent();
      new GraphPanel(panel, extensionUri, engine, activity, log);
      return Promise.resolve();
    },
  };
}
