import { LAYER_NAMES } from './protocol';
import type { LayerName, TimelineMemory } from './protocol';

/** A memory placed in its layer's lane: `row` is its line inside the lane. */
export interface PlacedBar {
  memory: TimelineMemory;
  start: number;
  end: number;
  row: number;
}

export interface Lane {
  layer: LayerName;
  rows: number;
  /** Sorted by start, so a visible range is found without looking at every bar. */
  bars: PlacedBar[];
}

/** Lanes hold at most this many rows; past it, bars share the row that frees first (drawn over each other). */
export const MAX_ROWS = 24;

/**
 * Packs each layer's bars into rows greedily (first row whose last bar ended before this one
 * starts), so overlapping validity intervals sit on separate lines.
 */
export function layoutLanes(memories: readonly TimelineMemory[], now: number): Lane[] {
  return LAYER_NAMES.map((layer) => {
    const bars = memories
      .filter((m) => m.layer === layer)
      .map((memory) => ({
        memory,
        start: memory.validFrom,
        end: Math.max(memory.validFrom, memory.validTo ?? now),
        row: 0,
      }))
      .sort((a, b) => a.start - b.start);
    const rowEnds: number[] = [];
    const rowCounts: number[] = [];
    for (const bar of bars) {
      let row = rowEnds.findIndex((end) => end < bar.start);
      // All rows busy: share the one that frees first, so overlaps spread instead of piling up.
      if (row < 0) row = rowEnds.length < MAX_ROWS ? rowEnds.length : earliestEnd(rowEnds, rowCounts);
      rowEnds[row] = Math.max(rowEnds[row] ?? 0, bar.end);
      rowCounts[row] = (rowCounts[row] ?? 0) + 1;
      bar.row = row;
    }
    return { layer, rows: Math.max(1, rowEnds.length), bars };
  });
}

/** The row that frees first; among rows that free at once (open bars run to now), the least used. */
function earliestEnd(rowEnds: readonly number[], rowCounts: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < rowEnds.length; i++) {
    const end = rowEnds[i] as number;
    const bestEnd = rowEnds[best] as number;
    if (end < bestEnd || (end === bestEnd && (rowCounts[i] as number) < (rowCounts[best] as number)))
      best = i;
  }
  return best;
}

/** The visible time range and the pixels it spans. */
export interface Viewport {
  from: number;
  to: number;
  width: number;
}

export function timeToX(v: Viewport, t: number): number {
  return ((t - v.from) / (v.to - v.from)) * v.width;
}

export function xToTime(v: Viewport, x: number): number {
  return v.from + (x / v.width) * (v.to - v.from);
}

/** The shortest and longest spans one can zoom to: a minute and twenty years. */
const MIN_SPAN = 60_000;
/** The shortest span Fit shows, so memories written seconds apart are still readable. */
const MIN_FIT_SPAN = 10 * 60_000;
const MAX_SPAN = 20 * 365 * 24 * 60 * 60_000;

/** Zooms by `factor` (<1 in, >1 out) around the time under pixel `x`. */
export function zoom(v: Viewport, factor: number, x: number): Viewport {
  const anchor = xToTime(v, x);
  const span = Math.min(MAX_SPAN, Math.max(MIN_SPAN, (v.to - v.from) * factor));
  const from = anchor - (x / v.width) * span;
  return { from, to: from + span, width: v.width };
}

/** Moves the range by `dx` pixels (positive: earlier times come into view). */
export function pan(v: Viewport, dx: number): Viewport {
  const dt = (dx / v.width) * (v.to - v.from);
  return { from: v.from - dt, to: v.to - dt, width: v.width };
}

/** A range that shows every bar (and the `extra` moments: scans, drift) with a margin, or the last week when there is nothing. */
export function fitRange(
  memories: readonly TimelineMemory[],
  now: number,
  width: number,
  extra: readonly number[] = [],
): Viewport {
  let from = Infinity;
  for (const m of memories) from = Math.min(from, m.validFrom, m.createdAt);
  for (const t of extra) from = Math.min(from, t);
  if (!Number.isFinite(from)) from = now - 7 * 24 * 60 * 60_000;
  const span = Math.max(MIN_FIT_SPAN, now - from);
  const to = now + span * 0.05;
  return { from: to - span * 1.1, to, width };
}

/** Tick spacing for the axis: the smallest step that leaves at least `minPx` between labels. */
const STEPS = [
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  6 * 60 * 60_000,
  24 * 60 * 60_000,
  7 * 24 * 60 * 60_000,
  30 * 24 * 60 * 60_000,
  365 * 24 * 60 * 60_000,
];

export function tickStep(v: Viewport, minPx = 90): number {
  const perPx = (v.to - v.from) / v.width;
  return STEPS.find((s) => s / perPx >= minPx) ?? (STEPS.at(-1) as number);
}

/** The bars of a lane that intersect [from, to]: a binary search bounds the scan by start. */
export function visibleBars(lane: Lane, from: number, to: number): PlacedBar[] {
  let lo = 0;
  let hi = lane.bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((lane.bars[mid] as PlacedBar).start <= to) lo = mid + 1;
    else hi = mid;
  }
  const out: PlacedBar[] = [];
  for (let i = 0; i < lo; i++) {
    const bar = lane.bars[i] as PlacedBar;
    if (bar.end >= from) out.push(bar);
  }
  return out;
}

/**
 * Whether a lane is drawn as density buckets instead of bars: when the bars that start in view
 * would start less than 2 px apart on average, separate bars are no longer readable (nor
 * clickable) and drawing them all only costs time. Bars that began earlier and run through the
 * view do not count: each is one long line however far one zooms in.
 */
export const MIN_PX_PER_BAR = 2;

export function shouldAggregate(startsInView: number, width: number): boolean {
  return startsInView > 0 && width / startsInView < MIN_PX_PER_BAR;
}

/** How many bars of a lane start within [from, to]: two binary searches over the sorted starts. */
export function startsBetween(lane: Lane, from: number, to: number): number {
  const firstAtOrAfter = (t: number, strict: boolean) => {
    let lo = 0;
    let hi = lane.bars.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const start = (lane.bars[mid] as PlacedBar).start;
      if (strict ? start <= t : start < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return Math.max(0, firstAtOrAfter(to, true) - firstAtOrAfter(from, false));
}

/** A lane's density: how many bars are valid at each bucket of `bucketPx` pixels, and how many start in it. */
export interface Density {
  bucketPx: number;
  valid: Int32Array;
  starts: Int32Array;
  max: number;
}

/**
 * Counts bars per pixel bucket in O(bars + buckets): +1 where a bar's span enters the view,
 * -1 after it leaves, then a running sum (a difference array).
 */
export function densityBuckets(bars: readonly PlacedBar[], v: Viewport, bucketPx = 2): Density {
  const n = Math.max(1, Math.ceil(v.width / bucketPx));
  const diff = new Int32Array(n + 1);
  const starts = new Int32Array(n);
  const bucketOf = (t: number) => Math.floor(timeToX(v, t) / bucketPx);
  for (const bar of bars) {
    if (bar.end < v.from || bar.start > v.to) continue;
    const a = Math.max(0, Math.min(n - 1, bucketOf(bar.start)));
    const b = Math.max(0, Math.min(n - 1, bucketOf(bar.end)));
    diff[a] = (diff[a] as number) + 1;
    diff[b + 1] = (diff[b + 1] as number) - 1;
    if (bar.start >= v.from) starts[a] = (starts[a] as number) + 1;
  }
  const valid = new Int32Array(n);
  let running = 0;
  let max = 0;
  for (let i = 0; i < n; i++) {
    running += diff[i] as number;
    valid[i] = running;
    if (running > max) max = running;
  }
  return { bucketPx, valid, starts, max };
}

/**
 * The two readings of "as of" time `t`:
 * - `transaction`: what Engram knew then. A memory first recorded after `t` was not yet known.
 * - `valid`: what was true then, by what Engram knows now. A memory valid only from after `t`
 *   was not yet true; one whose validity ended at or before `t` was no longer true.
 */
export type TimeAxis = 'transaction' | 'valid';

/** Whether the as-of view greys a memory out (not yet known, or not true at `t`). */
export function greyedAsOf(memory: TimelineMemory, t: number, axis: TimeAxis): boolean {
  if (axis === 'transaction') return memory.createdAt > t;
  return memory.validFrom > t || (memory.validTo !== null && memory.validTo <= t);
}

/** What a brushed range holds: the memories whose validity began inside it, oldest first. */
export function brushSelection(lanes: readonly Lane[], from: number, to: number): TimelineMemory[] {
  const lo = Math.min(from, to);
  const hi = Math.max(from, to);
  const out: PlacedBar[] = [];
  for (const lane of lanes) {
    // Bars are sorted by start: find the first start >= lo, take until a start passes hi.
    let a = 0;
    let b = lane.bars.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if ((lane.bars[mid] as PlacedBar).start < lo) a = mid + 1;
      else b = mid;
    }
    for (let i = a; i < lane.bars.length; i++) {
      const bar = lane.bars[i] as PlacedBar;
      if (bar.start > hi) break;
      out.push(bar);
    }
  }
  return out.sort((x, y) => x.start - y.start).map((bar) => bar.memory);
}

/** A view of the same span centred on `t` (Reveal in Timeline). */
export function centreOn(v: Viewport, t: number): Viewport {
  const span = v.to - v.from;
  return { from: t - span / 2, to: t + span / 2, width: v.width };
}

/** Pixel sizes of the lanes' frame. */
export const LANE_HEADER = 14;
export const LANE_GAP = 6;
const MIN_ROW_H = 2;
const MAX_ROW_H = 10;

/** One lane as one frame draws it: its bars in view, or its density when they would be too dense. */
export interface LaneFrame {
  lane: Lane;
  /** Top of the lane's rows (below its header). */
  top: number;
  rowH: number;
  height: number;
  bars: PlacedBar[] | null;
  density: Density | null;
}

/**
 * What one frame draws, lane by lane, between pixel rows `top` and `bottom`: rows share the
 * height (2 to 10 px each); only bars that intersect the view are returned, and a lane whose
 * bars starting in view would start less than 2 px apart gets density buckets instead.
 */
export function frameLayout(lanes: readonly Lane[], v: Viewport, top: number, bottom: number): LaneFrame[] {
  const totalRows = lanes.reduce((sum, lane) => sum + lane.rows, 0);
  const free = bottom - top - lanes.length * (LANE_HEADER + LANE_GAP);
  const rowH = Math.max(MIN_ROW_H, Math.min(MAX_ROW_H, Math.floor(free / Math.max(1, totalRows))));
  let y = top;
  return lanes.map((lane) => {
    const aggregate = shouldAggregate(startsBetween(lane, v.from, v.to), v.width);
    const frame: LaneFrame = {
      lane,
      top: y + LANE_HEADER,
      rowH,
      height: lane.rows * rowH,
      bars: aggregate ? null : visibleBars(lane, v.from, v.to),
      // densityBuckets skips what is out of view itself: no list of visible bars is built.
      density: aggregate ? densityBuckets(lane.bars, v) : null,
    };
    y = frame.top + frame.height + LANE_GAP;
    return frame;
  });
}
