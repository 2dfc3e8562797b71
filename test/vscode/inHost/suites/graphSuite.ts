import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { EXTENSION_ID, engramApi, workspacePath } from '../extensionApi';
import { eventually, test } from '../harness';
import { GraphPanel, graphSerializer } from '../../../../extension/webviews/graphPanel';
import { openFileEntity, openMemoryBeside } from '../../../../extension/webviews/openEntity';
import type { EngineActivity } from '../../../../engine/api/engineActivity';

function graphTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('engram.graph'));
}

const GRAPH_NOTES = [
  'The graph panel draws src/graph/panel.ts with sigma and graphology',
  'Caroline reviews src/graph/panel.ts and the <img src=x onerror=alert(1)> renderer',
  'Melanie maintains the forceatlas2 layout in src/graph/layout.ts',
];
const noteIds: string[] = [];

test('Open Graph opens one graph panel that loads the overview from the engine', async () => {
  const api = await engramApi();
  for (const content of GRAPH_NOTES) {
    const r = await api.engine.call('remember', { content });
    noteIds.push(r.memory.id);
  }
  const loadsBefore = api.graphStatus().loads;
  const viewType = await vscode.commands.executeCommand<string>('engram.openGraph');
  assert.equal(viewType, 'engram.graph');
  await eventually('the graph tab', () => graphTabs().length === 1 || undefined, 10_000);
  assert.equal(graphTabs()[0]?.label, 'Engram Graph');
  // The webview asked for data and the panel answered from the engine: an overview (no seeds).
  const load = await eventually('the first graph load', () => {
    const s = api.graphStatus();
    return s.loads > loadsBefore && s.lastLoad ? s.lastLoad : undefined;
  });
  assert.equal(load.seeds, 0);
  const overview = await api.engine.call('graphOverview', { limit: 400 });
  assert.equal(load.nodes, overview.nodes.length);
  assert.ok(load.nodes > 0 && load.edges > 0);
  await vscode.commands.executeCommand('engram.openGraph');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(graphTabs().length, 1, 'opening again reveals the same panel');
});

test('a recall in this window lights up the memories it returned in the graph', async () => {
  const api = await engramApi();
  const query = 'who maintains the forceatlas2 layout';
  const result = await api.engine.call('recall', { query });
  assert.ok(result.hits.some((h) => h.memory.id === noteIds[2]));
  const lit = await eventually('the webview to report the lit nodes', () => {
    const last = api.graphStatus().lastLit;
    return last?.query === query ? last : undefined;
  });
  assert.ok(lit.lit > 0, `lit ${lit.lit} of ${lit.touched}`);
  assert.ok(lit.touched >= result.hits.length);
});

test('a recall by another process (the CLI, a client of this window’s engine host) lights the graph too', async () => {
  const api = await engramApi();
  assert.equal(api.engine.role, 'host');
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  const query = 'who reviews the graph panel';
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      path.join(extension.extensionPath, 'dist', 'cli.js'),
      'recall',
      query,
      '--db',
      path.join(workspacePath(), '.engram', 'memory.db'),
    ],
    { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 30_000 },
  );
  assert.match(stdout, /Caroline reviews/);
  const lit = await eventually('the CLI recall to light the graph', () => {
    const last = api.graphStatus().lastLit;
    return last?.query === query ? last : undefined;
  });
  assert.ok(lit.lit > 0, `lit ${lit.lit} of ${lit.touched}`);
});

test('Reveal in Graph explores from a memory: the panel loads that memory’s neighbourhood', async () => {
  const api = await engramApi();
  const before = api.graphStatus().loads;
  const memory = noteIds[0];
  assert.ok(memory, 'a note to reveal');
  await vscode.commands.executeCommand('engram.revealInGraph', memory);
  const load = await eventually('the neighbourhood load', () => {
    const s = api.graphStatus();
    return s.loads > before && s.lastLoad?.seeds === 1 ? s.lastLoad : undefined;
  });
  const expected = await api.engine.call('graphNeighbourhood', {
    seeds: [{ memory }],
    hops: 1,
    limit: 400,
  });
  assert.equal(load.nodes, expected.nodes.length);
  // A write reloads the graph the webview shows.
  const loads = api.graphStatus().loads;
  await api.engine.call('remember', { content: 'The graph panel also shows src/graph/panel.ts drift' });
  await eventually('a reload after the write', () => api.graphStatus().loads > loads || undefined);
  await vscode.window.tabGroups.close(graphTabs());
  await eventually(
    'the panel to close',
    () => (graphTabs().length === 0 && !api.graphStatus().open) || undefined,
  );
});

test('the serializer restores a graph panel after a reload: the page, its CSP and its data come back', async () => {
  const api = await engramApi();
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  const log = vscode.window.createOutputChannel('Engram graph test', { log: true });
  const activity = new vscode.EventEmitter<EngineActivity>();
  // What VS Code hands the serializer after a window reload: a bare panel of our view type.
  const panel = vscode.window.createWebviewPanel('engram.graph', 'Engram Graph', vscode.ViewColumn.Active, {
    enableScripts: false,
  });
  await graphSerializer(extension.extensionUri, api.engine, activity.event, log).deserializeWebviewPanel(
    panel,
    {},
  );
  assert.match(panel.webview.html, /Content-Security-Policy/);
  assert.match(panel.webview.html, /script-src 'nonce-[^']+'/);
  // Nothing remote: every script, style and font the page names is a file of ours in dist/webview.
  const ours = panel.webview
    .asWebviewUri(vscode.Uri.joinPath(extension.extensionUri, 'dist', 'webview'))
    .toString();
  const links = [...panel.webview.html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
  assert.equal(links.length, 2, links.join(' '));
  for (const link of links) assert.ok(link.startsWith(`${ours}/`), `${link} is under ${ours}`);
  assert.equal(panel.webview.options.enableScripts, true);
  // This test's copy of the panel module counts its own loads: the restored webview asked for data.
  const load = await eventually('the restored panel to load', () => GraphPanel.statusNow().lastLoad);
  const overview = await api.engine.call('graphOverview', { limit: 400 });
  assert.equal(load.nodes, overview.nodes.length);
  // And it still lights what a recall touched. The overview shows the entities mentioned most and
  // their memories: whether this suite's notes make that cut depends on the scanned workspace, so
  // the recall asks for a memory the restored panel shows.
  const shown = overview.nodes.find((n) => n.kind === 'memory');
  assert.ok(shown, 'the overview shows memories');
  const shownId = String(shown.id).replace(/^m:/, '');
  const content = (await api.engine.call('get', { id: shownId })).memory.content;
  const hits = (await api.engine.call('recall', { query: content.slice(0, 200) })).hits.map(
    (h) => h.memory.id,
  );
  assert.ok(hits.includes(shownId), `a recall of its own words finds ${shownId}`);
  activity.fire({
    type: 'recall',
    method: 'recall',
    query: 'restored recall',
    memoryIds: hits,
    entityIds: [],
    client: 'test',
  });
  const lit = await eventually(
    'the restored panel to light the recall',
    () => GraphPanel.statusNow().lastLit,
  );
  assert.equal(lit.query, 'restored recall');
  assert.ok(lit.lit > 0);
  GraphPanel.disposeCurrent();
  activity.dispose();
  log.dispose();
  await eventually('the restored panel to close', () => graphTabs().length === 0 || undefined);
});

test('a clicked file opens beside the graph, a path out of the workspace does not; a memory opens read-only', async () => {
  const api = await engramApi();
  const log = vscode.window.createOutputChannel('Engram graph open test', { log: true });
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await openFileEntity('./src/auth/login.ts', log);
  const opened = await eventually('the file editor', () =>
    vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith('/src/auth/login.ts')),
  );
  assert.equal(opened.document.uri.scheme, 'file');
  const before = vscode.window.visibleTextEditors.length;
  await openFileEntity('../../etc/passwd', log);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.path.endsWith('/etc/passwd')));
  assert.equal(vscode.window.visibleTextEditors.length, before);
  await openMemoryBeside(api.engine, noteIds[1]!);
  const memory = await eventually('the memory document', () =>
    vscode.window.visibleTextEditors.find((e) =>
      e.document.getText().includes('Caroline reviews src/graph/panel.ts'),
    ),
  );
  assert.notEqual(memory.document.uri.scheme, 'file');
  // Its tab is named by its words, as every memory tab is, not by its id.
  assert.match(memory.document.uri.path, /\/Caroline reviews src/);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  log.dispose();
});
