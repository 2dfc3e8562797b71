import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterChoices, memoryFilter, NO_FILTER } from '../../webview/timeline/filters';
import {
  brushSelection,
  centreOn,
  densityBuckets,
  fitRange,
  frameLayout,
  greyedAsOf,
  layoutLanes,
  pan,
  shouldAggregate,
  visibleBars,
  zoom,
} from '../../webview/timeline/layout';
import type { TimelineData, TimelineMemory } from '../../webview/timeline/protocol';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function memory(
  id: string,
  validFrom: number,
  validTo: number | null,
  extra: Partial<TimelineMemory> = {},
): TimelineMemory {
  return {
    id,
    layer: 'semantic',
    kind: 'fact',
    status: 'active',
    content: id,
    agent: null,
    tags: [],
    validFrom,
    validTo,
    recordedAt: validFrom,
    createdAt: validFrom,
    version: 1,
    supersededBy: null,
    sourceFile: null,
    ...extra,
  };
}

describe('timeline layout', () => {
  it('puts overlapping validity intervals on separate rows and open ones up to now', () => {
    const lanes = layoutLanes([memory('a', 0, 10), memory('b', 5, null), memory('c', 20, 30)], 100);
    const semantic = lanes.find((l) => l.layer === 'semantic');
    assert.ok(semantic);
    const rows = Object.fromEntries(semantic.bars.map((b) => [b.memory.id, b.row]));
    assert.deepEqual(rows, { a: 0, b: 1, c: 0 });
    assert.equal(semantic.bars.find((b) => b.memory.id === 'b')?.end, 100);
    assert.equal(semantic.rows, 2);
  });

  it('returns only the bars that intersect the visible range', () => {
    const many = Array.from({ length: 5000 }, (_, i) => memory(`m${i}`, i * 10, i * 10 + 5));
    const [lane] = layoutLanes(many, 100_000).filter((l) => l.layer === 'semantic');
    assert.ok(lane);
    const ids = visibleBars(lane, 1000, 1030).map((b) => b.memory.id);
    assert.deepEqual(ids.sort(), ['m100', 'm101', 'm102', 'm103']);
  });

  it('draws bars when they are far apart and density buckets when they would be under 2 px apart', () => {
    // 4,000 memories over 40 days, each valid for 2 hours.
    const many = Array.from({ length: 4000 }, (_, i) =>
      memory(`m${i}`, i * 15 * 60_000, i * 15 * 60_000 + 2 * HOUR),
    );
    const lanes = layoutLanes(many, 50 * DAY).filter((l) => l.layer === 'semantic');
    const wide = frameLayout(lanes, { from: 0, to: 42 * DAY, width: 1000 }, 0, 600);
    assert.equal(wide[0]?.bars, null, '4,000 bars on 1,000 px are aggregated');
    const density = wide[0]?.density;
    assert.ok(density);
    assert.equal(density.valid.length, 500, 'one bucket per 2 px');
    let starts = 0;
    for (const s of density.starts) starts += s;
    assert.equal(starts, 4000, 'every start counted once');
    assert.ok(
      density.max >= 16 && density.max <= 17,
      // A bucket spans ~2 h; a 2-hour bar touches it when it starts up to ~4 h before its end.
      `16-17 bars touch one bucket (got ${density.max})`,
    );

    const narrow = frameLayout(lanes, { from: 10 * DAY, to: 10 * DAY + 6 * HOUR, width: 1000 }, 0, 600);
    assert.equal(narrow[0]?.density, null, 'zoomed in to six hours, bars are drawn');
    const bars = narrow[0]?.bars ?? [];
    assert.ok(bars.length > 0 && bars.length < 40, `only the bars in view (${bars.length})`);
    for (const b of bars) assert.ok(b.end >= 10 * DAY && b.start <= 10 * DAY + 6 * HOUR);
    assert.equal(shouldAggregate(0, 1000), false);
    assert.equal(shouldAggregate(500, 1000), false);
    assert.equal(shouldAggregate(501, 1000), true);
  });

  it('counts density with open bars running to now', () => {
    const lanes = layoutLanes([memory('a', 0, null), memory('b', 50, null), memory('c', 50, 60)], 100);
    const lane = lanes.find((l) => l.layer === 'semantic');
    assert.ok(lane);
    const d = densityBuckets(lane.bars, { from: 0, to: 100, width: 100 }, 10);
    assert.deepEqual([...d.valid], [1, 1, 1, 1, 1, 3, 3, 2, 2, 2]);
    assert.deepEqual([...d.starts], [1, 0, 0, 0, 0, 2, 0, 0, 0, 0]);
  });

  it('as of a moment: transaction time greys what was not yet recorded, valid time what was not true', () => {
    // Recorded on day 10 about something true since day 2; a second one recorded day 3, true days 5-8.
    const late = memory('late', 2 * DAY, null, { createdAt: 10 * DAY, recordedAt: 10 * DAY });
    const ended = memory('ended', 5 * DAY, 8 * DAY, { createdAt: 3 * DAY });
    const t = 6 * DAY;
    assert.equal(greyedAsOf(late, t, 'transaction'), true, 'not yet known on day 6');
    assert.equal(greyedAsOf(late, t, 'valid'), false, 'but already true');
    assert.equal(greyedAsOf(ended, t, 'transaction'), false, 'known since day 3');
    assert.equal(greyedAsOf(ended, t, 'valid'), false, 'true on day 6');
    assert.equal(greyedAsOf(ended, 4 * DAY, 'valid'), true, 'not yet true on day 4');
    assert.equal(greyedAsOf(ended, 9 * DAY, 'valid'), true, 'no longer true on day 9');
    assert.equal(greyedAsOf(ended, 9 * DAY, 'transaction'), false);
  });

  it('a brush selects the memories whose validity began in the range, across lanes', () => {
    const ms = [
      memory('a', 1 * DAY, null),
      memory('b', 2 * DAY, 3 * DAY, { layer: 'episodic' }),
      memory('c', 4 * DAY, null),
      memory('d', 5 * DAY, null, { layer: 'codebase' }),
      memory('e', 9 * DAY, null),
    ];
    const lanes = layoutLanes(ms, 10 * DAY);
    assert.deepEqual(
      brushSelection(lanes, 2 * DAY, 5 * DAY).map((m) => m.id),
      ['b', 'c', 'd'],
    );
    assert.deepEqual(
      brushSelection(lanes, 5 * DAY, 2 * DAY).map((m) => m.id),
      ['b', 'c', 'd'],
      'dragged right to left',
    );
    assert.deepEqual(brushSelection(lanes, 6 * DAY, 8 * DAY), []);
  });

  it('zooms around the pointer, pans, centres and fits', () => {
    const v = zoom({ from: 0, to: 100 * HOUR, width: 100 }, 0.5, 50);
    assert.equal((v.from + v.to) / 2, 50 * HOUR);
    assert.equal(v.to - v.from, 50 * HOUR);
    const year = 365 * DAY;
    assert.equal(zoom({ from: 0, to: year, width: 100 }, 1e6, 0).to, 20 * year, 'at most twenty years');
    assert.equal(zoom({ from: 0, to: HOUR, width: 100 }, 1e-6, 0).to, 60_000, 'at least a minute');
    assert.deepEqual(pan({ from: 0, to: 100, width: 100 }, 10), { from: -10, to: 90, width: 100 });
    assert.deepEqual(centreOn({ from: 0, to: 100, width: 100 }, 500), { from: 450, to: 550, width: 100 });
    const fit = fitRange([memory('a', 10 * DAY, null)], 20 * DAY, 100, [5 * DAY]);
    assert.ok(fit.from < 5 * DAY && fit.to > 20 * DAY, 'a scan before the first memory is in view');
  });
});

describe('timeline filters', () => {
  const ms = [
    memory('a', 0, null, { kind: 'decision', agent: 'claude', tags: ['api'], content: 'Use JSON' }),
    memory('b', 0, null, { layer: 'episodic', status: 'invalidated', content: 'Standup at ten' }),
  ];
  const ids = (f: Partial<typeof NO_FILTER>) =>
    ms.filter(memoryFilter({ ...NO_FILTER, ...f })).map((m) => m.id);

  it('filter by layer, kind, agent, status, tag and text', () => {
    assert.deepEqual(ids({}), ['a', 'b']);
    assert.deepEqual(ids({ hiddenLayers: ['semantic'] }), ['b']);
    assert.deepEqual(ids({ kind: 'decision' }), ['a']);
    assert.deepEqual(ids({ agent: 'claude' }), ['a']);
    assert.deepEqual(ids({ status: 'invalidated' }), ['b']);
    assert.deepEqual(ids({ tag: 'api' }), ['a']);
    assert.deepEqual(ids({ text: 'STANDUP' }), ['b']);
    assert.deepEqual(ids({ text: 'nothing like it' }), []);
  });

  it('offer the values present in the data', () => {
    const data: TimelineData = {
      memories: ms,
      versions: [],
      links: [],
      drift: [],
      scans: [],
      sessions: [],
      total: 2,
      truncated: false,
      now: 0,
    };
    assert.deepEqual(filterChoices(data), {
      kinds: ['decision', 'fact'],
      agents: ['claude'],
      statuses: ['active', 'invalidated'],
      tags: ['api'],
    });
  });
});

describe('timeline layout with many memories that stay valid', () => {
  it('zoomed in, draws the bars running through and those starting in view; zoomed out, aggregates', () => {
    // 3,000 open memories, one every 20 minutes: at any moment all earlier ones are still valid.
    const many = Array.from({ length: 3000 }, (_, i) => memory(`m${i}`, i * 20 * 60_000, null));
    const now = 3000 * 20 * 60_000;
    const lanes = layoutLanes(many, now).filter((l) => l.layer === 'semantic');
    const lane = lanes[0];
    assert.ok(lane);
    assert.equal(lane.rows, 24);
    const rowsUsed = new Set(lane.bars.slice(100).map((b) => b.row));
    assert.equal(rowsUsed.size, 24, 'bars past the row limit spread over every row, not only the last');
    const from = 1000 * 20 * 60_000;
    const hour = { from, to: from + HOUR, width: 1000 };
    const [zoomed] = frameLayout(lanes, hour, 0, 600);
    assert.equal(zoomed?.density, null, 'three bars start in this hour: drawn as bars');
    assert.equal(zoomed?.bars?.length, 1004, 'the 1,001 still running and the 3 starting in view');
    const [whole] = frameLayout(lanes, { from: 0, to: now, width: 1000 }, 0, 600);
    assert.equal(whole?.bars, null, '3,000 starts on 1,000 px: density');
  });
});
