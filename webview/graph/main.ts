import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import Sigma from 'sigma';
import { applyData, concentricPositions, createGraph, matchingNodes, touchedNodes } from './graphModel';
import type { EdgeAttributes, NodeAttributes } from './graphModel';
import { runForceLayout } from './forceLayout';
import { themedHoverLabel } from './hoverLabel';
import { collisionFreeLabels } from './labelPlacement';
import type { LayoutRun } from './forceLayout';
import { ENTITY_TYPES, LAYER_NAMES, MAX_SEEDS, parseHostMessage } from './protocol';
import type { GraphData, GraphNode, GraphSeed } from './protocol';
import { summaryLine } from '../shared/text';
import { css, palette, readColours } from './theme';
import { clickHint, describe, fillNodeList, fillResults, filterCheckbox, statusText } from './panelText';
import { graphQuery, restoreState, seedOf } from './viewState';
import type { VsCodeApi } from './viewState';
import { fillLegend, legendEntries } from './legend';

/** How long a recall's nodes stay lit. */
const RECALL_LIGHT_MS = 5000;

declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const ui = restoreState(vscode.getState());

const graph = createGraph();
const container = byId<HTMLDivElement>('graph');
const status = byId<HTMLDivElement>('status');
const detail = byId<HTMLDivElement>('detail');
const tooltip = byId<HTMLDivElement>('tooltip');
const results = byId<HTMLDivElement>('results');
const recallBox = byId<HTMLDivElement>('recall');
const recallText = byId<HTMLSpanElement>('recall-text');
const nodeList = byId<HTMLUListElement>('node-list');

let data: GraphData | undefined;
let nextRequest = 1;
let pendingData = 0;
let pendingSearch = 0;
let layoutRun: LayoutRun | undefined;
let hovered: string | undefined;
let found = new Set<string>();
let lit = new Set<string>();
let litTimer: ReturnType<typeof setTimeout> | undefined;
let lastRecall: { memoryIds: string[] } | undefined;
let extraTypes: string[] = [];

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

let colours = readColours();

// ---- the renderer ---------------------------------------------------------------------------

const labels = collisionFreeLabels(() => colours.label);
let renderer: Sigma<NodeAttributes, EdgeAttributes> | undefined;
try {
  renderer = new Sigma<NodeAttributes, EdgeAttributes>(graph, container, {
    labelColor: { color: colours.label },
    labelFont: css('--vscode-font-family', 'sans-serif'),
    labelSize: 12,
    // Labels on zoom: a node's label shows once it is drawn at least this big.
    labelRenderedSizeThreshold: 7,
    labelDensity: 0.6,
    zIndex: true,
    defaultEdgeType: 'line',
    defaultDrawNodeHover: themedHoverLabel(() => colours.hover),
    defaultDrawNodeLabel: labels.draw,
    nodeReducer: (id, attrs) => {
      const out: Partial<NodeAttributes> & { highlighted?: boolean; forceLabel?: boolean; zIndex?: number } =
        {
          ...attrs,
        };
      if (lit.has(id)) {
        return {
          ...out,
          color: colours.highlight,
          size: attrs.size * 1.8,
          forceLabel: true,
          zIndex: 2,
          highlighted: true,
        };
      }
      if (found.size > 0 && !found.has(id)) return { ...out, color: dimmed(), label: '', zIndex: 0 };
      if (found.has(id)) return { ...out, forceLabel: true, zIndex: 1, highlighted: true };
      if (hovered && hovered !== id && !isHoveredNeighbour(id)) return { ...out, color: dimmed(), label: '' };
      if (hovered === id) return { ...out, forceLabel: true, highlighted: true, zIndex: 1 };
      if (lit.size > 0) return { ...out, color: dimmed(), zIndex: 0 };
      return out;
    },
    edgeReducer: (edge, attrs) => {
      const [a, b] = graph.extremities(edge);
      if (hovered && a !== hovered && b !== hovered) return { ...attrs, hidden: true };
      if (lit.size > 0 && !(lit.has(a) && lit.has(b))) return { ...attrs, color: dimmed() };
      return attrs;
    },
  });
} catch (error) {
  // No WebGL (a remote session, a locked-down GPU): say so instead of leaving a blank panel.
  status.textContent = `The graph cannot be drawn here: ${summaryLine(String(error), 200)}`;
}

/**
 * Whether `id` is next to the hovered node. Reducers run inside graph.addNode while a new graph is
 * built: one that throws there leaves sigma's indices half made (the panel stuck on "Loading…").
 */
function isHoveredNeighbour(id: string): boolean {
  return (
    hovered !== undefined && graph.hasNode(hovered) && graph.hasNode(id) && graph.areNeighbors(hovered, id)
  );
}

/** Forgets the hovered node and hides its tooltip. */
function clearHover(): void {
  hovered = undefined;
  tooltip.hidden = true;
  container.style.cursor = '';
}

// Each frame starts with no label drawn; the counts say how many labels overlap would have cost.
renderer?.on('beforeRender', () => labels.reset());
renderer?.on('afterRender', () => {
  document.body.dataset['labelsDrawn'] = String(labels.drawn);
  document.body.dataset['labelsSkipped'] = String(labels.skipped);
});

function dimmed(): string {
  return colours.dim;
}

// VS Code swaps the theme class on <body>: take the new colours, keep the positions.
new MutationObserver(() => {
  colours = readColours();
  renderer?.setSetting('labelColor', { color: colours.label });
  if (data) applyData(graph, data, palette());
  drawLegend();
  refresh();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

/** The legend for the entity types the filters offer, in the graph's current colours. */
function drawLegend(): void {
  fillLegend(
    byId<HTMLDivElement>('legend'),
    legendEntries(palette(), [...ENTITY_TYPES, ...extraTypes], ui.sessions),
  );
}

function refresh(): void {
  renderer?.refresh({ skipIndexation: false });
}

// ---- data -----------------------------------------------------------------------------------

function requestData(): void {
  pendingData = nextRequest++;
  status.textContent = 'Loading…';
  vscode.postMessage({ type: 'graph/data/get', id: pendingData, query: graphQuery(ui, extraTypes) });
}

function saveState(): void {
  vscode.setState(ui);
}

function explore(seeds: GraphSeed[] | null, label: string): void {
  ui.seeds = seeds;
  ui.seedLabel = seeds ? label : '';
  saveState();
  results.replaceChildren();
  requestData();
}

function showData(next: GraphData): void {
  const started = performance.now();
  data = next;
  extraTypes = [
    ...new Set(
      next.nodes.flatMap((n) =>
        n.kind === 'entity' && !ENTITY_TYPES.includes(n.type as never) ? [n.type] : [],
      ),
    ),
  ];
  buildTypeFilters();
  drawLegend();
  layoutRun?.cancel();
  // Replacing the nodes drops sigma's hovered node without a leaveNode event (and the pointer may
  // never move off it: a click opened an editor, a write arrived): ours must go with it.
  clearHover();
  applyData(graph, next, palette());
  found = matchingNodes(graph, ui.find);
  updateStatus();
  fillNodeList(nodeList, next.nodes);
  renderer?.refresh();
  document.body.dataset['nodes'] = String(graph.order);
  document.body.dataset['buildMs'] = (performance.now() - started).toFixed(1);
  document.body.dataset['layout'] = 'running';
  const run: LayoutRun = runForceLayout(graph, {
    onDone: (stats) => {
      if (ui.layout === 'concentric') {
        for (const [id, p] of concentricPositions(graph)) graph.mergeNodeAttributes(id, p);
      }
      document.body.dataset['layoutMs'] = stats.ms.toFixed(0);
      document.body.dataset['layoutIterations'] = String(stats.iterations);
      document.body.dataset['msPerIteration'] = stats.msPerIteration.toFixed(1);
      document.body.dataset['layoutSlices'] = String(stats.slices);
      document.body.dataset['layoutBusyMs'] = stats.busyMs.toFixed(0);
      const framing =
        ui.seeds === null || graph.order > 0
          ? renderer?.getCamera().animatedReset({ duration: 300 })
          : undefined;
      // "done" once the picture stands still: the camera's move ends after the layout's last step.
      void Promise.resolve(framing).then(() => {
        if (layoutRun === run) document.body.dataset['layout'] = 'done';
      });
    },
  });
  layoutRun = run;
}

function updateStatus(): void {
  if (data) status.textContent = statusText(data, ui, found.size);
}

// ---- messages from the host -------------------------------------------------------------------

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (!message) return;
  switch (message.type) {
    case 'graph/view/DidInit':
      if (message.reveal) return explore(message.reveal, 'the revealed memory');
      return requestData();
    case 'graph/seed/DidReveal':
      return explore(message.seeds, 'the revealed memory');
    case 'graph/data/DidChange':
      return requestData();
    case 'graph/data/reply':
      if (message.id !== pendingData) return;
      if (!message.ok) {
        status.textContent = `Could not load the graph: ${message.error}`;
        return;
      }
      return showData(message.data);
    case 'graph/entities/reply':
      if (message.id !== pendingSearch) return;
      return fillResults(
        results,
        message.ok ? message.entities : [],
        message.ok ? undefined : message.error,
        (e) => explore([{ entityId: e.entityId }], e.name),
      );
    case 'graph/recall/DidRun':
      return lightUp(message.query, message.client, message.memoryIds, message.entityIds);
  }
});

function lightUp(queryText: string, client: string, memoryIds: string[], entityIds: number[]): void {
  const touched = memoryIds.length + entityIds.length;
  lit = new Set(touchedNodes(graph, memoryIds, entityIds));
  lastRecall = { memoryIds };
  recallText.textContent = `Recall “${summaryLine(queryText, 80)}” (${client}): ${memoryIds.length} memories, ${
    entityIds.length
  } entities; ${lit.size} in view`;
  recallBox.hidden = false;
  document.body.dataset['lit'] = String(lit.size);
  vscode.postMessage({ type: 'graph/recall/lit', query: queryText, lit: lit.size, touched });
  refresh();
  clearTimeout(litTimer);
  litTimer = setTimeout(() => {
    lit = new Set();
    document.body.dataset['lit'] = '0';
    refresh();
  }, RECALL_LIGHT_MS);
}

byId('recall-show').addEventListener('click', () => {
  if (!lastRecall || lastRecall.memoryIds.length === 0) return;
  explore(
    lastRecall.memoryIds.slice(0, MAX_SEEDS).map((memory) => ({ memory })),
    'the last recall',
  );
});

// ---- interaction ----------------------------------------------------------------------------

function open(node: GraphNode): void {
  detail.textContent = describe(node);
  if (node.kind === 'memory') {
    vscode.postMessage({ type: 'graph/memory/open', memoryId: node.memoryId });
  } else if (node.kind === 'session') {
    vscode.postMessage({ type: 'graph/session/open', sessionId: node.sessionId });
  } else if (node.kind === 'commit') {
    // The detail line says which commit; there is nothing of it to open in the workspace.
  } else if (node.type === 'file' || node.type === 'symbol') {
    vscode.postMessage({ type: 'graph/entity/open', entityType: node.type, name: node.label });
  } else {
    explore([{ entityId: node.entityId }], node.label);
  }
}

renderer?.on('clickNode', ({ node }) => {
  const attrs = graph.getNodeAttributes(node);
  open(attrs.node);
});
renderer?.on('doubleClickNode', (e) => {
  e.preventSigmaDefault();
  const attrs = graph.getNodeAttributes(e.node);
  const seed = seedOf(attrs.node);
  if (seed) explore([seed], attrs.node.label);
});
renderer?.on('enterNode', ({ node, event }) => {
  hovered = node;
  const attrs = graph.getNodeAttributes(node);
  tooltip.textContent = `${describe(attrs.node)}\n\n${clickHint(attrs.node)}`;
  tooltip.hidden = false;
  const rect = container.getBoundingClientRect();
  tooltip.style.left = `${Math.min(rect.left + event.x + 12, window.innerWidth - 350)}px`;
  tooltip.style.top = `${rect.top + event.y + 12}px`;
  container.style.cursor = 'pointer';
  refresh();
});

renderer?.on('leaveNode', () => {
  clearHover();
  refresh();
});

// The start: search entities by name; a click on a result explores from it.
const start = byId<HTMLInputElement>('start');
let searchTimer: ReturnType<typeof setTimeout> | undefined;
start.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    const text = start.value.trim();
    if (text === '') return results.replaceChildren();
    pendingSearch = nextRequest++;
    vscode.postMessage({ type: 'graph/entities/search', id: pendingSearch, text: text.slice(0, 200) });
  }, 200);
});

byId('overview').addEventListener('click', () => explore(null, ''));

function bindSelect(id: string, value: string, onChange: (value: string) => void): void {
  const select = byId<HTMLSelectElement>(id);
  select.value = value;
  select.addEventListener('change', () => onChange(select.value));
}
bindSelect('hops', String(ui.hops), (v) => {
  ui.hops = Number(v);
  saveState();
  if (ui.seeds) requestData();
});
bindSelect('limit', String(ui.limit), (v) => {
  ui.limit = Number(v);
  saveState();
  requestData();
});
bindSelect('layout', ui.layout, (v) => {
  ui.layout = v === 'concentric' ? 'concentric' : 'force';
  saveState();
  if (data) showData(data);
});

const find = byId<HTMLInputElement>('find');
find.value = ui.find;
find.addEventListener('input', () => {
  ui.find = find.value;
  saveState();
  found = matchingNodes(graph, ui.find);
  updateStatus();
  refresh();
});

function buildTypeFilters(): void {
  const group = byId<HTMLSpanElement>('types');
  const shown = Array.from(group.querySelectorAll<HTMLElement>('vscode-checkbox')).map(
    (b) => b.dataset['filter'],
  );
  const all = [...ENTITY_TYPES, ...extraTypes];
  if (shown.length === all.length && shown.every((t, i) => t === all[i])) return;
  group.querySelectorAll('vscode-checkbox').forEach((b) => b.remove());
  for (const type of all) {
    group.append(
      filterCheckbox(type, !ui.hiddenTypes.includes(type), (on) => {
        ui.hiddenTypes = on ? ui.hiddenTypes.filter((t) => t !== type) : [...ui.hiddenTypes, type];
        saveState();
        requestData();
      }),
    );
  }
}

for (const layer of LAYER_NAMES) {
  byId<HTMLSpanElement>('layers').append(
    filterCheckbox(layer, !ui.hiddenLayers.includes(layer), (on) => {
      ui.hiddenLayers = on ? ui.hiddenLayers.filter((l) => l !== layer) : [...ui.hiddenLayers, layer];
      saveState();
      requestData();
    }),
  );
}
byId<HTMLSpanElement>('capture').append(
  filterCheckbox('sessions', ui.sessions, (on) => {
    ui.sessions = on;
    saveState();
    drawLegend();
    requestData();
  }),
);
buildTypeFilters();
drawLegend();

vscode.postMessage({ type: 'graph/view/ready' });
