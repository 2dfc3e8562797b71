/**
 * `npm run bench:timeline`: the Timeline panel on a real 10k-memory store.
 *
 * 1. Data load: the engine's `timeline` read (what the panel asks for) against the plain `list` of
 *    the same memories (the first cut's query) as the baseline, and the payload's JSON size. For
 *    each, wall time, CPU time and the longest the event loop was blocked meanwhile (the host's
 *    thread is the extension host's when VS Code hosts the database: every extension waits).
 * 2. Layout per frame, in Node: lanes once per load, then what one frame computes (visible bars or
 *    density buckets per lane) at zoom levels from two years to an hour, against a baseline that
 *    places every bar each frame.
 * 3. Frames in headless Chromium: the real page with the 10k payload, zooming from the whole range
 *    to hours and panning; draw time per frame (the page records it) and the interval between
 *    frames while panning every frame.
 *
 * Usage: node --import tsx test/bench/timelineBench.ts [--count N] [--json]. Medians throughout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { fitRange, frameLayout, layoutLanes, timeToX } from '../../webview/timeline/layout';
import type { Viewport } from '../../webview/timeline/layout';
import type { TimelineData } from '../../webview/timeline/protocol';
import { launchBrowser, openTimelinePage } from '../webview/timelinePage';
import { machine, median, ms, percentile, round } from './stats';
import { writtenOrReported } from './batchRejections';
import type { RememberManyResult } from '../../engine/memory/types';
import { grammarsDirectory } from '../code/codeWorkspace';
import { GitRepository } from '../drift/gitRepository';
import { seededRandom } from '../support/seededRandom';
import { DIRS, FILES, syntheticMemories } from './syntheticMemories';

const countArg = process.argv.indexOf('--count');
const COUNT = countArg > 0 ? Number(process.argv[countArg + 1]) : 10_000;
const json = process.argv.includes('--json');
const sqlWasmPath = createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LAYERS = ['semantic', 'semantic', 'semantic', 'episodic', 'procedural', 'working', 'codebase'] as const;

let seq = 0;
function call<T>(host: EngineDispatcher, method: string, params: unknown = {}): Promise<T> {
  return host.dispatch(method, params, { requestId: `bench-${++seq}`, client: 'bench' }) as Promise<T>;
}

/**
 * A store that looks like two years of use: memories in every layer spread over the range, 5% on
 * shared subjects (conflict keys: supersessions), 3% edited later (versions), 2% invalidated.
 */
async function buildStore(): Promise<{ host: EngineDispatcher; seconds: number; driftSeconds: number }> {
  const dir = path.join(os.tmpdir(), `engram-bench-timeline-${process.pid}`);
  const workspace = path.join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const repo = new GitRepository(workspace);
  repo.git('init', '-q', '-b', 'main');
  repo.git('config', 'user.email', 'bench@example.com');
  repo.git('config', 'user.name', 'Bench');
  const files = DIRS.flatMap((d) => FILES.map((f) => `${d}/${f}`));
  repo.commit('initial', '2024-10-01T09:00:00Z', {
    write: Object.fromEntries(files.map((f, i) => [f, `export const value${i} = ${i};\n`])),
  });
  // Half the files are deleted in two later commits: memories naming them become stale there.
  repo.commit('Drop the old auth and billing modules', '2025-06-02T10:00:00Z', {
    remove: files.filter((f) => /auth|billing/.test(f)),
  });
  repo.commit('Remove the jobs runner', '2026-02-10T16:00:00Z', {
    remove: files.filter((f) => f.startsWith('src/jobs')),
  });
  let now = Date.parse('2024-11-01T00:00:00Z');
  const host = await EngineDispatcher.open({
    code: { root: workspace, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
    dbPath: path.join(dir, 'memory.db'),
    sqlWasmPath,
    logger: silentLogger,
    clock: () => now,
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 256 * 1024 * 1024 },
    embedding: null,
  });
  const started = process.hrtime.bigint();
  const texts = syntheticMemories(COUNT, 7);
  const random = seededRandom(11);
  const step = (730 * DAY) / COUNT;
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i += 200) {
    const batch = texts.slice(i, i + 200).map((content, j) => {
      const k = i + j;
      return {
        content: `${content} (#${k})`,
        layer: LAYERS[k % LAYERS.length],
        ...(LAYERS[k % LAYERS.length] === 'working' ? { session: `s${Math.floor(k / 50)}` } : {}),
        validFrom: now + j * step - random() * 3 * DAY,
        ...(random() < 0.05 ? { conflictKey: `subject-${Math.floor(random() * 150)}` } : {}),
        dedupe: false,
      };
    });
    const result = await call<RememberManyResult[]>(host, 'rememberMany', { memories: batch });
    for (const written of writtenOrReported(result, 'timeline corpus'))
      if (written) ids.push(written.memory.id);
    now += 200 * step;
  }
  for (const [i, id] of ids.entries()) {
    if (i % 500 === 0) await call(host, 'scan');
    const r = random();
    if (r < 0.03) {
      now += HOUR;
      await call(host, 'edit', { id, changes: { importance: 0.9 } }).catch(() => undefined);
    } else if (r < 0.05) {
      now += HOUR;
      await call(host, 'invalidate', { id, reason: 'no longer true' }).catch(() => undefined);
    }
  }
  const seconds = round(ms(started) / 1000, 1);
  const driftStart = process.hrtime.bigint();
  await call(host, 'drift');
  return { host, seconds, driftSeconds: round(ms(driftStart) / 1000, 1) };
}

/**
 * Medians of wall time, CPU time and the longest event-loop block while `f` runs (a 1 ms timer
 * that fires late by the length of each block; its worst lateness, less the 1 ms).
 */
async function blocking<T>(
  runs: number,
  f: () => Promise<T> | T,
): Promise<{ medianMs: number; cpuMs: number; longestBlockMs: number; value: T }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  const blocks: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < runs; i++) {
    const monitor = monitorEventLoopDelay({ resolution: 1 });
    monitor.enable();
    // Let the monitor's timer start before the work does.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    value = await f();
    const used = process.cpuUsage(cpuStart);
    wall.push(ms(start));
    cpu.push((used.user + used.system) / 1000);
    // One more tick so that a block at the very end is measured too.
    await new Promise((resolve) => setTimeout(resolve, 2));
    monitor.disable();
    blocks.push(Math.max(0, monitor.max / 1e6 - 1));
  }
  return {
    medianMs: round(median(wall), 2),
    cpuMs: round(median(cpu), 1),
    longestBlockMs: round(median(blocks), 1),
    value: value as T,
  };
}

/** Zoom levels of one bench: the whole range, then spans down to an hour, centred in the data. */
function zoomLevels(fit: Viewport): Array<{ name: string; view: Viewport }> {
  const centre = (fit.from + fit.to) / 2;
  const at = (span: number) => ({ from: centre - span / 2, to: centre + span / 2, width: fit.width });
  return [
    { name: 'fit (2 years)', view: fit },
    { name: '3 months', view: at(90 * DAY) },
    { name: '1 week', view: at(7 * DAY) },
    { name: '1 day', view: at(DAY) },
    { name: '1 hour', view: at(HOUR) },
  ];
}

/** Keeps the baseline's loop from being optimised away. */
let sink = 0;

function nodeLayout(data: TimelineData) {
  const lanesRun = [];
  let lanes = layoutLanes(data.memories, data.now);
  for (let i = 0; i < 9; i++) {
    const start = process.hrtime.bigint();
    lanes = layoutLanes(data.memories, data.now);
    lanesRun.push(ms(start));
  }
  const fit = fitRange(data.memories, data.now, 1400);
  const perLevel: Record<string, unknown> = {};
  for (const { name, view } of zoomLevels(fit)) {
    const frameTimes: number[] = [];
    const baseline: number[] = [];
    let drawn = 0;
    let aggregated = 0;
    for (let i = 0; i < 200; i++) {
      const v = { ...view, from: view.from + i * 1000, to: view.to + i * 1000 };
      let start = process.hrtime.bigint();
      const frames = frameLayout(lanes, v, 52, 700);
      frameTimes.push(ms(start));
      drawn = frames.reduce((n, f) => n + (f.bars?.length ?? 0), 0);
      aggregated = frames.filter((f) => f.density).length;
      // Baseline: place every bar every frame, as a renderer without culling would.
      start = process.hrtime.bigint();
      for (const lane of lanes)
        for (const bar of lane.bars) if (timeToX(v, bar.end) >= 0 && timeToX(v, bar.start) <= v.width) sink++;
      baseline.push(ms(start));
    }
    perLevel[name] = {
      frameLayoutMedianMs: round(median(frameTimes), 3),
      allBarsBaselineMedianMs: round(median(baseline), 3),
      barsDrawn: drawn,
      aggregatedLanes: aggregated,
    };
  }
  return { layoutLanesMedianMs: round(median(lanesRun), 2), perFrame: perLevel, sink: sink > 0 };
}

async function browserFrames(data: TimelineData) {
  const browser = await launchBrowser();
  try {
    const view = await openTimelinePage(browser, () => data, { width: 1400, height: 800 });
    await view.until(
      'the first draw',
      async () => /memories/.test(await view.page.locator('#status').innerText()),
      60_000,
    );
    const canvas = view.page.locator('#timeline');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas');
    await view.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const drawMs = async () => Number(await canvas.getAttribute('data-draw-ms'));
    const zoomedOut: number[] = [];
    const zoomedIn: number[] = [];
    // From the whole range in (each step x0.55), then back out: every frame's draw time.
    for (let i = 0; i < 60; i++) {
      const inward = i % 30 < 15;
      await view.page.mouse.wheel(0, inward ? -300 : 300);
      await view.page.evaluate(
        () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
      );
      const aggregated = Number(await canvas.getAttribute('data-aggregated'));
      (aggregated > 0 ? zoomedOut : zoomedIn).push(await drawMs());
    }
    // Panning every frame at a zoom with bars: intervals between frames as the page sees them.
    const intervals = await view.page.evaluate(async () => {
      const c = document.getElementById('timeline') as HTMLCanvasElement;
      const r = c.getBoundingClientRect();
      const times: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 90; i++) {
        const x = r.left + r.width / 2 + (i % 2 ? 3 : -3);
        c.dispatchEvent(new MouseEvent('mousedown', { clientX: x, clientY: r.top + 200, bubbles: true }));
        window.dispatchEvent(
          new MouseEvent('mousemove', { clientX: x + 12, clientY: r.top + 200, bubbles: true }),
        );
        window.dispatchEvent(
          new MouseEvent('mouseup', { clientX: x + 12, clientY: r.top + 200, bubbles: true }),
        );
        await new Promise((done) => requestAnimationFrame(done));
        const t = performance.now();
        times.push(t - last);
        last = t;
      }
      return times.slice(5);
    });
    const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
    return {
      aggregatedFrames: zoomedOut.length,
      drawMsMedianAggregated: round(median(zoomedOut), 2),
      drawMsP95Aggregated: round(percentile(sorted(zoomedOut), 95), 2),
      barFrames: zoomedIn.length,
      drawMsMedianBars: round(median(zoomedIn), 2),
      drawMsP95Bars: round(percentile(sorted(zoomedIn), 95), 2),
      panFrameIntervalMedianMs: round(median(intervals), 2),
      panFrameIntervalP95Ms: round(percentile(sorted(intervals), 95), 2),
      errors: view.errors,
    };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const { host, seconds, driftSeconds } = await buildStore();
  const results: Record<string, unknown> = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    memories: COUNT,
    buildSeconds: seconds,
    driftCheckSeconds: driftSeconds,
  };
  const timeline = await blocking(9, () => call<TimelineData>(host, 'timeline', {}));
  const baseline = await blocking(9, () => call(host, 'list', { status: 'all', limit: 10_000 }));
  const data = timeline.value;
  // What the payload costs around the read: VS Code serialises what the panel posts to the
  // webview, and a window that is a client parses the host's answer.
  const serialise = await blocking(9, () => JSON.stringify(data));
  const parse = await blocking(9, () => JSON.parse(serialise.value) as unknown);
  results['load'] = {
    timelineMedianMs: timeline.medianMs,
    timelineCpuMs: timeline.cpuMs,
    timelineLongestBlockMs: timeline.longestBlockMs,
    listBaselineMedianMs: baseline.medianMs,
    listBaselineCpuMs: baseline.cpuMs,
    listBaselineLongestBlockMs: baseline.longestBlockMs,
    jsonParseMedianMs: parse.medianMs,
    payloadMB: round(Buffer.byteLength(serialise.value) / 2 ** 20, 2),
    listPayloadMB: round(Buffer.byteLength(JSON.stringify(baseline.value)) / 2 ** 20, 2),
    jsonStringifyMedianMs: serialise.medianMs,
    memories: data.memories.length,
    versions: data.versions.length,
    links: data.links.length,
    drift: data.drift.length,
    scans: data.scans.length,
  };
  await host.close();
  results['nodeLayout'] = nodeLayout(data);
  results['chromium'] = await browserFrames(data);
  const out = path.resolve(__dirname, '..', '..', 'bench-out');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'timeline-bench.json'), JSON.stringify(results, null, 2));
  console.log(json ? JSON.stringify(results) : JSON.stringify(results, null, 2));
}

void main();
