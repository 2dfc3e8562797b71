import { densityBuckets, frameLayout, greyedAsOf, tickStep, timeToX } from './layout';
import type { Lane, LaneFrame, TimeAxis, Viewport } from './layout';
import type {
  LayerName,
  TimelineData,
  TimelineDriftEvent,
  TimelineMemory,
  TimelineScan,
  TimelineSession,
  TimelineVersionMark,
} from './protocol';
import { SESSIONS_H, drawSessions, sessionLabel } from './sessionLane';

/** Something under the pointer in the last frame: only what was drawn is in the list. */
export interface Hit {
  x1: number;
  x2: number;
  y1: number;
  y2: number;
  memory?: TimelineMemory;
  drift?: TimelineDriftEvent;
  scan?: TimelineScan;
  /** A captured session's band: clicking it opens the transcript. */
  session?: TimelineSession;
  /** A density bucket: clicking it zooms in there. */
  zoomTo?: number;
  label: string;
}

export interface FrameInput {
  ctx: CanvasRenderingContext2D;
  width: number;
  height: number;
  view: Viewport;
  data: TimelineData;
  lanes: readonly Lane[];
  versions: ReadonlyMap<string, TimelineVersionMark[]>;
  /** Drift findings per memory, to mark them on its bar. */
  driftByMemory: ReadonlyMap<string, TimelineDriftEvent[]>;
  /** Built once per load, not per frame: memories by id and the start of each laid-out bar. */
  memoryById: ReadonlyMap<string, TimelineMemory>;
  barStarts: ReadonlyMap<string, number>;
  selectedId: string | undefined;
  selectedSessionId: string | undefined;
  asOf: { t: number; axis: TimeAxis } | undefined;
  brush: { from: number; to: number } | undefined;
  css: (name: string, fallback: string) => string;
}

export interface FrameResult {
  hits: Hit[];
  bars: number;
  aggregatedLanes: number;
  /** Where each drawn bar is, for links and Reveal. */
  barRows: Map<string, { y: number; h: number }>;
}

export const AXIS_H = 22;
export const SCAN_H = 14;
export const DRIFT_H = 16;

export const LAYER_COLOURS: Record<LayerName, string> = {
  working: '--vscode-charts-yellow',
  episodic: '--vscode-charts-blue',
  semantic: '--vscode-charts-green',
  procedural: '--vscode-charts-purple',
  codebase: '--vscode-charts-orange',
};

const DAY = 24 * 3600_000;

/** Draws one frame and returns what is under which pixels. */
export function drawFrame(input: FrameInput): FrameResult {
  const { ctx, width, height, view: v, data, css } = input;
  const fg = css('--vscode-foreground', '#ccc');
  const muted = css('--vscode-descriptionForeground', '#999');
  const border = css('--vscode-panel-border', '#444');
  const hits: Hit[] = [];
  ctx.clearRect(0, 0, width, height);
  ctx.font = `11px ${css('--vscode-font-family', 'sans-serif')}`;
  ctx.textBaseline = 'middle';
  ctx.lineWidth = 1;

  drawAxis(ctx, v, height, border, muted);
  if (input.brush) {
    const a = timeToX(v, Math.min(input.brush.from, input.brush.to));
    const b = timeToX(v, Math.max(input.brush.from, input.brush.to));
    ctx.fillStyle = css('--vscode-editor-selectionBackground', '#264f78');
    ctx.globalAlpha = 0.35;
    ctx.fillRect(a, AXIS_H, Math.max(1, b - a), height - AXIS_H);
    ctx.globalAlpha = 1;
  }

  // Scan runs: a tick per scan on its own lane, wider for long scans.
  const scanY = AXIS_H;
  ctx.fillStyle = muted;
  ctx.fillText('scans', 4, scanY + SCAN_H / 2);
  const scanColour = css('--vscode-charts-blue', '#48f');
  for (const scan of data.scans) {
    const end = scan.finishedAt ?? scan.startedAt;
    if (end < v.from || scan.startedAt > v.to) continue;
    const x1 = timeToX(v, scan.startedAt);
    const x2 = Math.max(x1 + 2, timeToX(v, end));
    ctx.fillStyle = scanColour;
    ctx.fillRect(x1, scanY + 3, x2 - x1, SCAN_H - 6);
    const files = scan.changedFiles === null ? '' : ` · ${scan.changedFiles} files changed`;
    hits.push({
      x1: x1 - 2,
      x2: x2 + 2,
      y1: scanY,
      y2: scanY + SCAN_H,
      scan,
      label: `scan #${scan.generation} · ${scan.status}${files}\n${new Date(scan.startedAt).toLocaleString()}`,
    });
  }

  // Drift: a diamond at the commit that made each finding stale.
  const driftY = AXIS_H + SCAN_H;
  ctx.fillStyle = muted;
  ctx.fillText('drift', 4, driftY + DRIFT_H / 2);
  const driftColour = css('--vscode-charts-yellow', '#ec4');
  for (const drift of data.drift) {
    if (drift.at < v.from || drift.at > v.to) continue;
    const x = timeToX(v, drift.at);
    diamond(ctx, x, driftY + DRIFT_H / 2, 4, driftColour);
    hits.push({
      x1: x - 4,
      x2: x + 4,
      y1: driftY,
      y2: driftY + DRIFT_H,
      drift,
      memory: input.memoryById.get(drift.memoryId),
      label: driftLabel(drift),
    });
  }

  // Captured agent sessions: a band each, from start to end, in the agent's colour.
  const sessionY = AXIS_H + SCAN_H + DRIFT_H;
  for (const band of drawSessions(ctx, data.sessions, v, sessionY, input.selectedSessionId, css)) {
    hits.push({ ...band, session: band.session, label: sessionLabel(band.session) });
  }

  const frames = frameLayout(input.lanes, v, sessionY + SESSIONS_H + 4, height);
  const barRows = new Map<string, { y: number; h: number }>();
  let bars = 0;
  let aggregatedLanes = 0;
  for (const frame of frames) {
    ctx.fillStyle = fg;
    ctx.fillText(`${frame.lane.layer} (${frame.lane.bars.length})`, 4, frame.top - 7);
    const colour = css(LAYER_COLOURS[frame.lane.layer], '#88f');
    if (frame.density) {
      aggregatedLanes++;
      drawDensity(ctx, frame, input, colour, hits);
    } else {
      bars += drawBars(ctx, frame, input, colour, fg, hits, barRows);
    }
    ctx.strokeStyle = border;
    ctx.beginPath();
    ctx.moveTo(0, frame.top + frame.height + 3.5);
    ctx.lineTo(width, frame.top + frame.height + 3.5);
    ctx.stroke();
  }

  drawLinks(ctx, input, barRows, css('--vscode-charts-orange', '#fa4'), css('--vscode-charts-red', '#f44'));

  // "Now", and the as-of moment.
  vertical(ctx, timeToX(v, data.now), AXIS_H, height, css('--vscode-charts-red', '#f44'));
  if (input.asOf) {
    const x = timeToX(v, input.asOf.t);
    vertical(ctx, x, 0, height, css('--vscode-focusBorder', '#07f'));
    ctx.fillStyle = css('--vscode-focusBorder', '#07f');
    ctx.fillText(input.asOf.axis === 'transaction' ? 'known' : 'true', x + 3, AXIS_H + SCAN_H / 2);
  }
  return { hits, bars, aggregatedLanes, barRows };
}

function drawAxis(
  ctx: CanvasRenderingContext2D,
  v: Viewport,
  height: number,
  border: string,
  muted: string,
): void {
  const step = tickStep(v);
  ctx.strokeStyle = border;
  ctx.fillStyle = muted;
  for (let t = Math.ceil(v.from / step) * step; t <= v.to; t += step) {
    const x = Math.round(timeToX(v, t)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(x, AXIS_H);
    ctx.lineTo(x, height);
    ctx.stroke();
    const d = new Date(t);
    const label =
      step < DAY
        ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
        : step >= 365 * DAY
          ? String(d.getFullYear())
          : d.toLocaleDateString();
    ctx.fillText(label, x + 3, AXIS_H / 2);
  }
}

function drawBars(
  ctx: CanvasRenderingContext2D,
  frame: LaneFrame,
  input: FrameInput,
  colour: string,
  fg: string,
  hits: Hit[],
  barRows: Map<string, { y: number; h: number }>,
): number {
  const { view: v, width, asOf } = input;
  const grey = input.css('--vscode-disabledForeground', '#777');
  const markColour = input.css('--vscode-editor-background', '#1e1e1e');
  const driftColour = input.css('--vscode-charts-yellow', '#ec4');
  const h = Math.max(1, frame.rowH - 1);
  for (const bar of frame.bars ?? []) {
    const m = bar.memory;
    const x1 = Math.max(-2, timeToX(v, bar.start));
    const x2 = Math.min(width + 2, Math.max(x1 + 2, timeToX(v, bar.end)));
    const y = frame.top + bar.row * frame.rowH;
    const greyed = asOf !== undefined && greyedAsOf(m, asOf.t, asOf.axis);
    ctx.globalAlpha = greyed ? 0.18 : m.status === 'active' ? 0.9 : 0.45;
    ctx.fillStyle = greyed ? grey : colour;
    ctx.fillRect(x1, y, x2 - x1, h);
    // Where it began: bars that share a row stay distinguishable by their starts.
    if (bar.start >= v.from) {
      ctx.globalAlpha = greyed ? 0.3 : 1;
      ctx.fillStyle = fg;
      ctx.fillRect(x1, y, 1.5, h);
    }
    ctx.globalAlpha = 1;
    // Invalidated or ended: a hard stop at the end of validity.
    if (m.validTo !== null && h >= 3) {
      ctx.fillStyle = fg;
      ctx.fillRect(x2 - 1, y, 2, h);
    }
    // Versions: a notch where each later version was recorded.
    if (h >= 3) {
      for (const mark of input.versions.get(m.id) ?? []) {
        const x = timeToX(v, mark.recordedAt);
        if (x < x1 || x > x2) continue;
        ctx.fillStyle = markColour;
        ctx.fillRect(x - 0.5, y, 1.5, h);
      }
      for (const drift of input.driftByMemory.get(m.id) ?? []) {
        const x = timeToX(v, drift.at);
        if (x >= x1 - 3 && x <= x2 + 3) diamond(ctx, x, y + h / 2, Math.min(4, h / 2 + 1), driftColour);
      }
    }
    if (m.id === input.selectedId) {
      ctx.strokeStyle = input.css('--vscode-focusBorder', '#07f');
      ctx.lineWidth = 2;
      ctx.strokeRect(x1 - 1, y - 1, x2 - x1 + 2, h + 2);
      ctx.lineWidth = 1;
    }
    barRows.set(m.id, { y, h });
    hits.push({ x1, x2, y1: y, y2: y + Math.max(h, 3), memory: m, label: '' });
  }
  return frame.bars?.length ?? 0;
}

/**
 * A dense lane: a filled profile of how many memories are valid per bucket, scaled to the lane.
 * In as-of mode the whole profile is grey and what was known (or true) then is drawn over it in
 * the lane's colour.
 */
function drawDensity(
  ctx: CanvasRenderingContext2D,
  frame: LaneFrame,
  input: FrameInput,
  colour: string,
  hits: Hit[],
): void {
  const d = frame.density;
  if (!d) return;
  const v = input.view;
  const asOf = input.asOf;
  const known = asOf
    ? densityBuckets(
        frame.lane.bars.filter((b) => !greyedAsOf(b.memory, asOf.t, asOf.axis)),
        v,
        d.bucketPx,
      )
    : d;
  const scale = frame.height / Math.max(1, d.max);
  for (const [profile, fill] of asOf
    ? ([
        [d, input.css('--vscode-disabledForeground', '#777')],
        [known, colour],
      ] as const)
    : ([[d, colour]] as const)) {
    ctx.fillStyle = fill;
    for (let i = 0; i < profile.valid.length; i++) {
      const count = profile.valid[i] as number;
      if (count === 0) continue;
      const h = Math.max(1, count * scale);
      ctx.globalAlpha = 0.35 + 0.55 * Math.min(1, (profile.starts[i] as number) / 4);
      ctx.fillRect(i * profile.bucketPx, frame.top + frame.height - h, profile.bucketPx, h);
    }
  }
  ctx.globalAlpha = 1;
  // One hit region per 24 px: a count and a zoom target, not one per bucket.
  const per = Math.max(1, Math.round(24 / d.bucketPx));
  for (let i = 0; i < d.valid.length; i += per) {
    let valid = 0;
    let starts = 0;
    for (let j = i; j < Math.min(d.valid.length, i + per); j++) {
      valid = Math.max(valid, d.valid[j] as number);
      starts += d.starts[j] as number;
    }
    if (valid === 0) continue;
    const x1 = i * d.bucketPx;
    const x2 = x1 + per * d.bucketPx;
    const mid = v.from + ((x1 + x2) / 2 / v.width) * (v.to - v.from);
    hits.push({
      x1,
      x2,
      y1: frame.top,
      y2: frame.top + frame.height,
      zoomTo: mid,
      label: `${frame.lane.layer}: up to ${valid} memories valid here, ${starts} began\nclick to zoom in`,
    });
  }
}

/** Supersession (and invalidation) links: from the end of the replaced bar to the start of its successor. */
function drawLinks(
  ctx: CanvasRenderingContext2D,
  input: FrameInput,
  rows: ReadonlyMap<string, { y: number; h: number }>,
  supersede: string,
  invalidate: string,
): void {
  const starts = input.barStarts;
  ctx.lineWidth = 1.25;
  for (const link of input.data.links) {
    const a = rows.get(link.from);
    const b = rows.get(link.to);
    const toStart = starts.get(link.to);
    if (!a || !b || toStart === undefined) continue;
    const x1 = timeToX(input.view, link.at);
    const x2 = timeToX(input.view, toStart);
    const y1 = a.y + a.h / 2;
    const y2 = b.y + b.h / 2;
    ctx.strokeStyle = link.kind === 'supersede' ? supersede : invalidate;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    const bend = Math.max(12, Math.abs(x2 - x1) / 2);
    ctx.bezierCurveTo(x1 + bend, y1, x2 - bend, y2, x2, y2);
    ctx.stroke();
    ctx.fillStyle = ctx.strokeStyle;
    ctx.beginPath();
    ctx.moveTo(x2, y2);
    ctx.lineTo(x2 - 5, y2 - 3);
    ctx.lineTo(x2 - 5, y2 + 3);
    ctx.fill();
  }
  ctx.lineWidth = 1;
}

function diamond(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
  ctx.fill();
}

function vertical(ctx: CanvasRenderingContext2D, x: number, y1: number, y2: number, colour: string): void {
  ctx.strokeStyle = colour;
  ctx.beginPath();
  ctx.moveTo(Math.round(x) + 0.5, y1);
  ctx.lineTo(Math.round(x) + 0.5, y2);
  ctx.stroke();
}

export function driftLabel(d: TimelineDriftEvent): string {
  const commit = d.commit
    ? `commit ${d.commit.hash.slice(0, 10)} · ${d.commit.date.slice(0, 10)}\n${d.commit.message}`
    : 'no commit found (placed at the check)';
  return `drift: ${d.claimKind} ${d.subject} · ${d.reason}\n${commit}`;
}
