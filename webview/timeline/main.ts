import { renderBrush, renderDetail, describeMemory } from './detail';
import { drawFrame } from './draw';
import type { Hit } from './draw';
import { filterChoices, memoryFilter } from './filters';
import type { TimelineFilter } from './filters';
import { brushSelection, centreOn, fitRange, layoutLanes, pan, xToTime, zoom } from './layout';
import type { Lane, Viewport } from './layout';
import { parseHostMessage } from './protocol';
import type {
  TimelineData,
  TimelineDriftEvent,
  TimelineMemory,
  TimelineVersionMark,
  WebviewToHost,
} from './protocol';
import { createToolbar } from './toolbar';
import { restoreUiState } from './uiState';
import type { UiState } from './uiState';

/** What VS Code gives a webview script (acquireVsCodeApi); its state holds UI state only. */
interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: UiState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const ui: UiState = restoreUiState(vscode.getState());
const post = (message: WebviewToHost) => vscode.postMessage(message);

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const canvas = byId<HTMLCanvasElement>('timeline');
const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
const tooltip = byId<HTMLDivElement>('tooltip');
const detail = byId<HTMLDivElement>('detail');
const brushPane = byId<HTMLDivElement>('brush');

const styles = getComputedStyle(document.documentElement);
const cssCache = new Map<string, string>();
function css(name: string, fallback: string): string {
  let value = cssCache.get(name);
  if (value === undefined) cssCache.set(name, (value = styles.getPropertyValue(name).trim() || fallback));
  return value;
}
// A theme change restyles the page: read the colours again.
new MutationObserver(() => {
  cssCache.clear();
  redraw();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

let data: TimelineData | undefined;
let lanes: Lane[] = [];
let shown: TimelineMemory[] = [];
let versions = new Map<string, TimelineVersionMark[]>();
let driftByMemory = new Map<string, TimelineDriftEvent[]>();
let memoryById = new Map<string, TimelineMemory>();
let barStarts = new Map<string, number>();
let view: Viewport | undefined;
let hits: Hit[] = [];
let nextRequest = 1;
let pending = 0;
let pendingReveal: string | undefined;
/** The session band last clicked (its transcript was opened): outlined until another click. */
let selectedSession: string | undefined;

const toolbar = createToolbar(ui.filter, ui.asOf, css, {
  onFilter(change: Partial<TimelineFilter>) {
    ui.filter = { ...ui.filter, ...change };
    refiltered();
  },
  onFit() {
    if (!data) return;
    view = fitRange(shown, data.now, canvas.clientWidth, extraMoments(data));
    changed();
  },
  onAsOf(on, axis) {
    ui.asOf = { on, axis, t: ui.asOf.t ?? (view ? (view.from + view.to) / 2 : Date.now()) };
    changed();
  },
});

function requestData(): void {
  pending = nextRequest++;
  toolbar.setStatus('Loading…');
  post({ type: 'timeline/data/get', id: pending });
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (!message) return;
  if (message.type === 'timeline/data/DidChange') return requestData();
  if (message.type === 'timeline/memory/DidReveal') {
    pendingReveal = message.memoryId;
    return applyReveal();
  }
  if (message.id !== pending) return;
  if (!message.ok) return toolbar.setStatus(`Could not load the timeline: ${message.error}`);
  data = message.data;
  versions = groupBy(data.versions, (v) => v.memoryId);
  driftByMemory = groupBy(data.drift, (d) => d.memoryId);
  memoryById = new Map(data.memories.map((m) => [m.id, m]));
  toolbar.setChoices(filterChoices(data));
  relayout();
  if (!view) {
    const width = canvas.clientWidth || 800;
    view =
      ui.from !== undefined && ui.to !== undefined
        ? { from: ui.from, to: ui.to, width }
        : fitRange(shown, data.now, width, extraMoments(data));
  }
  if (!applyReveal()) {
    showSelection();
    reportSelection();
  }
  draw();
});

/** Scans and drift commits belong in view too when fitting. */
function extraMoments(d: TimelineData): number[] {
  return [
    ...d.scans.map((s) => s.startedAt),
    ...d.drift.map((e) => e.at),
    ...d.sessions.flatMap((s) => [s.startedAt, s.endedAt]),
  ];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** Reveal in Timeline: centre on the memory and select it, once the data is here. */
function applyReveal(): boolean {
  if (!data || !view || !pendingReveal) return false;
  const id = pendingReveal;
  const memory = data.memories.find((m) => m.id === id);
  if (!memory) {
    toolbar.setStatus(`That memory is not among the ${data.memories.length} loaded`);
    pendingReveal = undefined;
    return false;
  }
  if (!memoryFilter(ui.filter)(memory))
    toolbar.setStatus('The revealed memory is hidden by the current filters');
  pendingReveal = undefined;
  view = centreOn(view, memory.validFrom + ((memory.validTo ?? data.now) - memory.validFrom) / 2);
  ui.selectedId = id;
  showSelection();
  reportSelection();
  changed();
  return true;
}

function relayout(): void {
  if (!data) return;
  shown = data.memories.filter(memoryFilter(ui.filter));
  lanes = layoutLanes(shown, data.now).filter((l) => !ui.filter.hiddenLayers.includes(l.layer));
  barStarts = new Map(lanes.flatMap((l) => l.bars.map((b) => [b.memory.id, b.start] as const)));
  const cut = data.truncated ? ` (the newest ${data.memories.length} of ${data.total} are loaded)` : '';
  toolbar.setStatus(
    `${shown.length} of ${data.memories.length} memories, ${data.drift.length} drift events, ${data.scans.length} scans, ${data.sessions.length} sessions${cut}`,
  );
  showBrush();
}

/** After a change of view or selection: save the UI state and draw. */
function changed(): void {
  saveState();
  redraw();
}

/** After a change of filters: lay the lanes out again (costly at 10k memories), then as changed(). */
function refiltered(): void {
  relayout();
  changed();
}

function saveState(): void {
  if (view) {
    ui.from = view.from;
    ui.to = view.to;
  }
  vscode.setState(ui);
}

function selected(): TimelineMemory | undefined {
  return ui.selectedId ? memoryById.get(ui.selectedId) : undefined;
}

function showSelection(): void {
  const m = selected();
  renderDetail(
    detail,
    m,
    m ? (versions.get(m.id) ?? []) : [],
    m ? (driftByMemory.get(m.id) ?? []) : [],
    post,
  );
}

function reportSelection(): void {
  post({ type: 'timeline/selection/changed', memoryId: selected()?.id ?? null, shown: shown.length });
}

function select(m: TimelineMemory | undefined): void {
  ui.selectedId = m?.id ?? null;
  showSelection();
  reportSelection();
  saveState();
  redraw();
}

function showBrush(): void {
  brushPane.hidden = !ui.brush;
  if (!ui.brush) return;
  const inRange = brushSelection(lanes, ui.brush.from, ui.brush.to);
  renderBrush(byId('brush-title'), byId('brush-list'), ui.brush.from, ui.brush.to, inRange, (m) => {
    if (view) view = centreOn(view, m.validFrom);
    select(m);
  });
}

function draw(): void {
  const started = performance.now();
  const dpr = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  if (!data || !view) {
    ctx.clearRect(0, 0, width, height);
    hits = [];
    return;
  }
  view = { ...view, width };
  const asOf = ui.asOf.on && ui.asOf.t !== null ? { t: ui.asOf.t, axis: ui.asOf.axis } : undefined;
  toolbar.setAsOfLabel(asOf ? new Date(asOf.t).toLocaleString() : '');
  const frame = drawFrame({
    ctx,
    width,
    height,
    view,
    data,
    lanes,
    versions,
    driftByMemory,
    memoryById,
    barStarts,
    selectedId: ui.selectedId ?? undefined,
    selectedSessionId: selectedSession,
    asOf,
    brush: ui.brush ?? undefined,
    css,
  });
  hits = frame.hits;
  canvas.dataset['bars'] = String(frame.bars);
  canvas.dataset['aggregated'] = String(frame.aggregatedLanes);
  // What the last frame cost and drew: read by the browser tests and bench:timeline.
  canvas.dataset['drawMs'] = (performance.now() - started).toFixed(3);
}

let frameRequest = 0;
function redraw(): void {
  if (frameRequest) return;
  frameRequest = requestAnimationFrame(() => {
    frameRequest = 0;
    draw();
  });
}

function hitAt(x: number, y: number): Hit | undefined {
  for (let i = hits.length - 1; i >= 0; i--) {
    const h = hits[i] as Hit;
    if (x >= h.x1 - 2 && x <= h.x2 + 2 && y >= h.y1 && y <= h.y2) return h;
  }
  return undefined;
}

function local(e: MouseEvent): { x: number; y: number } {
  const rect = canvas.getBoundingClientRect();
  return { x: e.clientX - rect.left, y: e.clientY - rect.top };
}

canvas.addEventListener(
  'wheel',
  (e) => {
    if (!view) return;
    e.preventDefault();
    tooltip.hidden = true;
    const horizontal = e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY);
    view = horizontal
      ? pan(view, -(e.deltaX || e.deltaY))
      : zoom(view, Math.exp(e.deltaY * 0.002), local(e).x);
    saveState();
    redraw();
  },
  { passive: false },
);

/** A press: a plain drag pans, a shift-drag brushes a range, a click on the axis sets the as-of moment. */
let drag: { x: number; brush: boolean; moved: boolean } | undefined;
canvas.addEventListener('mousedown', (e) => {
  const { x, y } = local(e);
  if (view && ui.asOf.on && y < 22) {
    ui.asOf = { ...ui.asOf, t: xToTime(view, x) };
    changed();
    return;
  }
  drag = { x: e.clientX, brush: e.shiftKey, moved: false };
  if (e.shiftKey && view) ui.brush = { from: xToTime(view, x), to: xToTime(view, x) };
});
window.addEventListener('mousemove', (e) => {
  if (drag && view) {
    const dx = e.clientX - drag.x;
    if (Math.abs(dx) > 2 || drag.moved) {
      drag.moved = true;
      tooltip.hidden = true;
      if (drag.brush && ui.brush) {
        ui.brush = { from: ui.brush.from, to: xToTime(view, local(e).x) };
        showBrush();
      } else {
        drag.x = e.clientX;
        view = pan(view, dx);
      }
      redraw();
      return;
    }
  }
  const { x, y } = local(e);
  const hit = e.target === canvas ? hitAt(x, y) : undefined;
  if (!hit) {
    tooltip.hidden = true;
    canvas.style.cursor = drag ? 'grabbing' : 'grab';
    return;
  }
  canvas.style.cursor = hit.memory || hit.session || hit.zoomTo !== undefined ? 'pointer' : 'default';
  tooltip.textContent = [hit.label, hit.memory ? describeMemory(hit.memory) : ''].filter(Boolean).join('\n');
  tooltip.hidden = false;
  tooltip.style.left = `${Math.min(e.clientX + 12, window.innerWidth - 370)}px`;
  tooltip.style.top = `${Math.min(e.clientY + 12, window.innerHeight - 80)}px`;
});
window.addEventListener('mouseup', (e) => {
  const was = drag;
  drag = undefined;
  if (!was) return;
  if (was.brush) {
    if (!was.moved) ui.brush = null;
    showBrush();
  }
  if (was.moved || e.target !== canvas) return changed();
  const { x, y } = local(e);
  const hit = hitAt(x, y);
  if (hit?.zoomTo !== undefined && view) {
    view = zoom(centreOn(view, hit.zoomTo), 0.25, view.width / 2);
    return changed();
  }
  selectedSession = hit?.session?.id;
  if (hit?.session) {
    post({ type: 'timeline/session/open', sessionId: hit.session.id });
    return changed();
  }
  select(hit?.memory);
  // A click opens the memory too, beside the panel and without taking the focus from it.
  if (hit?.memory) post({ type: 'timeline/memory/open', memoryId: hit.memory.id });
});
canvas.addEventListener('keydown', (e) => {
  if (!view) return;
  const step = { ArrowLeft: 60, ArrowRight: -60 }[e.key];
  if (step !== undefined) view = pan(view, step);
  else if (e.key === '+' || e.key === '=') view = zoom(view, 0.8, view.width / 2);
  else if (e.key === '-') view = zoom(view, 1.25, view.width / 2);
  else if (e.key === 'Enter' && ui.selectedId)
    post({ type: 'timeline/memory/open', memoryId: ui.selectedId });
  else if (e.key === 'Escape') {
    ui.brush = null;
    showBrush();
  } else return;
  e.preventDefault();
  changed();
});
byId('brush-clear').addEventListener('click', () => {
  ui.brush = null;
  showBrush();
  changed();
});
new ResizeObserver(() => redraw()).observe(canvas);

showSelection();
post({ type: 'timeline/view/ready' });
requestData();
