import { layoutLanes, fitRange, pan, tickStep, timeToX, visibleBars, zoom } from './layout';
import type { Lane, Viewport } from './layout';
import { LAYER_NAMES, parseHostMessage } from './protocol';
import type { LayerName, TimelineData, TimelineMemory, WebviewToHost } from './protocol';
import { summaryLine } from './text';

/** What VS Code gives a webview script (acquireVsCodeApi); state holds UI state only. */
interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: UiState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface UiState {
  from?: number;
  to?: number;
  hidden: LayerName[];
  text: string;
}

const AXIS_H = 22;
const EVENT_H = 18;
const LANE_HEADER = 16;
const ROW_H = 8;
const LANE_GAP = 6;

const vscode = acquireVsCodeApi();
const saved = vscode.getState() as Partial<UiState> | undefined;
const ui: UiState = {
  from: typeof saved?.from === 'number' ? saved.from : undefined,
  to: typeof saved?.to === 'number' ? saved.to : undefined,
  hidden: Array.isArray(saved?.hidden) ? saved.hidden.filter((l) => LAYER_NAMES.includes(l)) : [],
  text: typeof saved?.text === 'string' ? saved.text : '',
};

const canvas = byId<HTMLCanvasElement>('timeline');
const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
const tooltip = byId<HTMLDivElement>('tooltip');
const status = byId<HTMLSpanElement>('status');
const detail = byId<HTMLDivElement>('detail');
const search = byId<HTMLInputElement>('search');

let data: TimelineData | undefined;
let lanes: Lane[] = [];
let view: Viewport | undefined;
let nextRequest = 1;
let pending = 0;
/** What the last frame drew, for hit testing: only visible bars and marks are in it. */
let hits: Array<{ x1: number; x2: number; y1: number; y2: number; memory?: TimelineMemory; label: string }> =
  [];

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function css(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

const LAYER_COLOURS: Record<LayerName, string> = {
  working: '--vscode-charts-yellow',
  episodic: '--vscode-charts-blue',
  semantic: '--vscode-charts-green',
  procedural: '--vscode-charts-purple',
  codebase: '--vscode-charts-orange',
};

function requestData(): void {
  pending = nextRequest++;
  status.textContent = 'Loading…';
  vscode.postMessage({ type: 'timeline/data/get', id: pending });
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (!message) return;
  if (message.type === 'timeline/data/DidChange') return requestData();
  if (message.id !== pending) return;
  if (!message.ok) {
    status.textContent = `Could not load the timeline: ${message.error}`;
    return;
  }
  data = message.data;
  relayout();
  if (!view) {
    const width = canvas.clientWidth || 800;
    view =
      ui.from !== undefined && ui.to !== undefined && ui.to > ui.from
        ? { from: ui.from, to: ui.to, width }
        : fitRange(
            lanes.flatMap((l) => l.bars.map((b) => b.memory)),
            data.now,
            width,
          );
  }
  draw();
});

function filtered(): TimelineMemory[] {
  if (!data) return [];
  const needle = ui.text.trim().toLowerCase();
  return data.memories.filter(
    (m) => !ui.hidden.includes(m.layer) && (needle === '' || m.content.toLowerCase().includes(needle)),
  );
}

function relayout(): void {
  if (!data) return;
  const shown = filtered();
  lanes = layoutLanes(shown, data.now).filter((l) => !ui.hidden.includes(l.layer));
  const cut = data.truncated ? ' (more exist than one load shows)' : '';
  status.textContent = `${shown.length} of ${data.memories.length} memories, ${data.events.length} events${cut}`;
}

function saveState(): void {
  if (view) {
    ui.from = view.from;
    ui.to = view.to;
  }
  vscode.setState(ui);
}

function draw(): void {
  const dpr = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  hits = [];
  if (!data || !view) return;
  view = { ...view, width };
  const v = view;
  const fg = css('--vscode-foreground', '#ccc');
  const muted = css('--vscode-descriptionForeground', '#999');
  const border = css('--vscode-panel-border', '#444');
  ctx.font = `11px ${css('--vscode-font-family', 'sans-serif')}`;
  ctx.textBaseline = 'middle';

  // The axis: grid lines and dates.
  const step = tickStep(v);
  ctx.strokeStyle = border;
  ctx.fillStyle = muted;
  ctx.lineWidth = 1;
  for (let t = Math.ceil(v.from / step) * step; t <= v.to; t += step) {
    const x = Math.round(timeToX(v, t)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(x, AXIS_H);
    ctx.lineTo(x, height);
    ctx.stroke();
    const d = new Date(t);
    const label = step < 24 * 3600_000 ? d.toLocaleTimeString() : d.toLocaleDateString();
    ctx.fillText(label, x + 3, AXIS_H / 2);
  }

  // "Now".
  const nowX = Math.round(timeToX(v, data.now)) + 0.5;
  ctx.strokeStyle = css('--vscode-charts-red', '#f44');
  ctx.beginPath();
  ctx.moveTo(nowX, AXIS_H);
  ctx.lineTo(nowX, height);
  ctx.stroke();

  // The event lane: one mark per ledger event in view.
  const evY = AXIS_H;
  ctx.fillStyle = fg;
  ctx.fillText('events', 4, evY + EVENT_H / 2);
  for (const e of data.events) {
    if (e.at < v.from || e.at > v.to) continue;
    const x = timeToX(v, e.at);
    ctx.fillStyle = eventColour(e.type);
    ctx.fillRect(x - 1, evY + 3, 2, EVENT_H - 6);
    const memory = e.memoryId ? data.memories.find((m) => m.id === e.memoryId) : undefined;
    hits.push({
      x1: x - 3,
      x2: x + 3,
      y1: evY,
      y2: evY + EVENT_H,
      memory,
      label: `${e.type} · ${new Date(e.at).toLocaleString()}${e.agent ? ` · ${e.agent}` : ''}`,
    });
  }

  // The lanes: a bar per memory from valid_from to valid_to (or now), only those in view.
  let y = AXIS_H + EVENT_H + LANE_GAP;
  for (const lane of lanes) {
    if (y > height) break;
    ctx.fillStyle = fg;
    ctx.fillText(`${lane.layer} (${lane.bars.length})`, 4, y + LANE_HEADER / 2);
    const top = y + LANE_HEADER;
    const colour = css(LAYER_COLOURS[lane.layer], '#88f');
    for (const bar of visibleBars(lane, v.from, v.to)) {
      const x1 = Math.max(-2, timeToX(v, bar.start));
      const x2 = Math.min(width + 2, Math.max(x1 + 2, timeToX(v, bar.end)));
      const by = top + bar.row * ROW_H;
      ctx.globalAlpha = bar.memory.status === 'active' ? 0.9 : 0.35;
      ctx.fillStyle = colour;
      ctx.fillRect(x1, by + 1, x2 - x1, ROW_H - 2);
      ctx.globalAlpha = 1;
      if (bar.memory.validTo !== null) {
        ctx.fillStyle = fg;
        ctx.fillRect(x2 - 1, by, 2, ROW_H);
      }
      hits.push({ x1, x2, y1: by, y2: by + ROW_H, memory: bar.memory, label: '' });
    }
    y = top + lane.rows * ROW_H + LANE_GAP;
    ctx.strokeStyle = border;
    ctx.beginPath();
    ctx.moveTo(0, y - LANE_GAP / 2 + 0.5);
    ctx.lineTo(width, y - LANE_GAP / 2 + 0.5);
    ctx.stroke();
  }
}

function eventColour(type: string): string {
  if (type.includes('invalid') || type.includes('forget')) return css('--vscode-charts-red', '#f44');
  if (type.includes('supersede') || type.includes('edit')) return css('--vscode-charts-orange', '#fa4');
  if (type.includes('drift')) return css('--vscode-charts-yellow', '#ff4');
  return css('--vscode-charts-blue', '#48f');
}

function hitAt(x: number, y: number): (typeof hits)[number] | undefined {
  for (let i = hits.length - 1; i >= 0; i--) {
    const h = hits[i] as (typeof hits)[number];
    if (x >= h.x1 - 2 && x <= h.x2 + 2 && y >= h.y1 && y <= h.y2) return h;
  }
  return undefined;
}

function describe(memory: TimelineMemory): string {
  const until = memory.validTo === null ? 'now' : new Date(memory.validTo).toLocaleString();
  return `${memory.layer} · ${memory.kind} · ${memory.status} · v${memory.version}\n${new Date(
    memory.validFrom,
  ).toLocaleString()} → ${until}\n${summaryLine(memory.content, 300)}`;
}

/** Shows a memory's text below the chart: as text, never as markup. */
function showDetail(memory: TimelineMemory): void {
  detail.textContent = describe(memory);
}

let frame = 0;
function redraw(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    draw();
  });
}

canvas.addEventListener(
  'wheel',
  (e) => {
    if (!view) return;
    e.preventDefault();
    const rect = canvas.getBoundingClientRect();
    view = e.shiftKey ? pan(view, -e.deltaY) : zoom(view, Math.exp(e.deltaY * 0.002), e.clientX - rect.left);
    saveState();
    redraw();
  },
  { passive: false },
);

let drag: { x: number; moved: boolean } | undefined;
canvas.addEventListener('mousedown', (e) => {
  drag = { x: e.clientX, moved: false };
});
window.addEventListener('mousemove', (e) => {
  const rect = canvas.getBoundingClientRect();
  if (drag && view) {
    const dx = e.clientX - drag.x;
    if (Math.abs(dx) > 2 || drag.moved) {
      drag = { x: e.clientX, moved: true };
      view = pan(view, dx);
      tooltip.hidden = true;
      redraw();
      return;
    }
  }
  const hit = hitAt(e.clientX - rect.left, e.clientY - rect.top);
  if (!hit || e.target !== canvas) {
    tooltip.hidden = true;
    canvas.style.cursor = drag ? 'grabbing' : 'grab';
    return;
  }
  canvas.style.cursor = hit.memory ? 'pointer' : 'default';
  tooltip.textContent = hit.label
    ? `${hit.label}${hit.memory ? `\n${describe(hit.memory)}` : ''}`
    : describe(hit.memory as TimelineMemory);
  tooltip.hidden = false;
  tooltip.style.left = `${Math.min(e.clientX + 12, window.innerWidth - 320)}px`;
  tooltip.style.top = `${e.clientY + 12}px`;
});
window.addEventListener('mouseup', (e) => {
  const wasDrag = drag?.moved ?? false;
  drag = undefined;
  if (wasDrag) return saveState();
  if (e.target !== canvas) return;
  const rect = canvas.getBoundingClientRect();
  const hit = hitAt(e.clientX - rect.left, e.clientY - rect.top);
  if (hit?.memory) {
    showDetail(hit.memory);
    vscode.postMessage({ type: 'timeline/memory/open', memoryId: hit.memory.id });
  }
});

// Filters: one checkbox per layer and a text search, kept in the UI state.
const layerBox = byId<HTMLSpanElement>('layers');
for (const layer of LAYER_NAMES) {
  const label = document.createElement('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = !ui.hidden.includes(layer);
  box.dataset['layer'] = layer;
  box.addEventListener('change', () => {
    ui.hidden = box.checked ? ui.hidden.filter((l) => l !== layer) : [...ui.hidden, layer];
    saveState();
    relayout();
    redraw();
  });
  label.append(box, document.createTextNode(layer));
  layerBox.append(label);
}
search.value = ui.text;
search.addEventListener('input', () => {
  ui.text = search.value;
  saveState();
  relayout();
  redraw();
});
byId<HTMLButtonElement>('fit').addEventListener('click', () => {
  if (!data) return;
  view = fitRange(filtered(), data.now, canvas.clientWidth);
  saveState();
  redraw();
});
new ResizeObserver(() => redraw()).observe(canvas);

vscode.postMessage({ type: 'timeline/view/ready' });
requestData();
