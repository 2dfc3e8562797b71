import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHostMessage, parseWebviewMessage } from '../../webview/analytics/protocol';

const health = {
  now: 1,
  retention: { bins: [], memories: 0, belowArchive: 0, archiveThreshold: 0.15 },
  archived: { total: 0, recent: 0 },
  promoted: { total: 0, recent: 0 },
  recentDays: 30,
  runs: [],
  quality: { active: 0, recalled: 0, share: null },
  duplicates: { pairs: null, countedAt: null, stale: false },
};

/* The Analytics panel's messages: each side takes only what its guard accepts. */
describe('analytics webview protocol', () => {
  it('the host takes a data request with a request id and the consolidate command, nothing else', () => {
    assert.ok(parseWebviewMessage({ type: 'analytics/health/get', id: 0 }));
    assert.ok(parseWebviewMessage({ type: 'analytics/consolidation/run' }));
    for (const bad of [
      { type: 'analytics/consolidation/run', apply: true },
      { type: 'analytics/consolidation/runs' },
      { type: 'analytics/health/get' },
      { type: 'analytics/health/get', id: -1 },
      { type: 'analytics/health/get', id: 1.5 },
      { type: 'timeline/data/get', id: 1 },
      null,
      'analytics/health/get',
      [],
    ])
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  });

  it('the webview takes a reply with the data or an error, and the change notification', () => {
    for (const good of [
      { type: 'analytics/health/reply', id: 1, ok: true, data: health },
      { type: 'analytics/health/reply', id: 1, ok: false, error: 'database is closed' },
      { type: 'analytics/health/DidChange' },
    ])
      assert.ok(parseHostMessage(good), JSON.stringify(good));
    for (const bad of [
      { type: 'analytics/health/reply', id: 1, ok: true },
      { type: 'analytics/health/reply', id: 1, ok: true, data: { ...health, runs: {} } },
      { type: 'analytics/health/reply', id: 1, ok: true, data: { ...health, retention: { bins: 3 } } },
      { type: 'analytics/health/reply', id: 1, ok: false },
      { type: 'analytics/health/reply', ok: false, error: 'x' },
      { type: 'analytics/health/get', id: 1 },
    ])
      assert.equal(parseHostMessage(bad), undefined, JSON.stringify(bad));
  });
});
