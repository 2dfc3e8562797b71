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

/** Lanes hold at most this many rows; bars past it share the last row (drawn over each other). */
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
    for (const bar of bars) {
      let row = rowEnds.findIndex((end) => end < bar.start);
      if (row < 0) row = rowEnds.length < MAX_ROWS ? rowEnds.length : MAX_ROWS - 1;
      rowEnds[row] = Math.max(rowEnds[row] ?? 0, bar.end);
      bar.row = row;
    }
    return { layer, rows: Math.max(1, rowEnds.length), bars };
  });
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

/** A range that shows every bar with a margin, or the last week when there is nothing. */
export function fitRange(memories: readonly TimelineMemory[], now: number, width: number): Viewport {
  let from = Infinity;
  for (const m of memories) from = Math.min(from, m.validFrom, m.recordedAt);
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
