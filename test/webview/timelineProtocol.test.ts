import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DataReply,
  DidChangeDataNotification,
  GetDataRequest,
  OpenMemoryCommand,
  ReadyNotification,
  parseHostMessage,
  parseWebviewMessage,
} from '../../webview/timeline/protocol';
import { layoutLanes, visibleBars, zoom } from '../../webview/timeline/layout';
import type { TimelineMemory } from '../../webview/timeline/protocol';
import { escapeHtml, summaryLine } from '../../webview/timeline/text';

const data = { memories: [], events: [], truncated: false, now: 1 };

describe('timeline protocol guards', () => {
  it('accept the messages the webview sends', () => {
    assert.ok(GetDataRequest.is({ type: 'timeline/data/get', id: 3 }));
    assert.ok(OpenMemoryCommand.is({ type: 'timeline/memory/open', memoryId: 'mem_01HX-abc' }));
    assert.ok(ReadyNotification.is({ type: 'timeline/view/ready' }));
    assert.deepEqual(parseWebviewMessage({ type: 'timeline/data/get', id: 0 }), {
      type: 'timeline/data/get',
      id: 0,
    });
  });

  it('refuse malformed or unknown webview messages', () => {
    for (const bad of [
      null,
      'timeline/data/get',
      [],
      {},
      { type: 'timeline/data/get' },
      { type: 'timeline/data/get', id: -1 },
      { type: 'timeline/data/get', id: 1.5 },
      { type: 'timeline/data/get', id: '1' },
      { type: 'timeline/memory/open' },
      { type: 'timeline/memory/open', memoryId: 42 },
      { type: 'timeline/memory/open', memoryId: '' },
      { type: 'timeline/memory/open', memoryId: '../../etc/passwd' },
      { type: 'timeline/memory/open', memoryId: 'x'.repeat(65) },
      { type: 'timeline/memory/delete', memoryId: 'abc' },
      { type: 'timeline/data/reply', id: 1, ok: true, data },
    ]) {
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('accept replies and notifications from the host and refuse malformed ones', () => {
    assert.ok(DataReply.is({ type: 'timeline/data/reply', id: 1, ok: true, data }));
    assert.ok(DataReply.is({ type: 'timeline/data/reply', id: 1, ok: false, error: 'engine closed' }));
    assert.ok(DidChangeDataNotification.is({ type: 'timeline/data/DidChange' }));
    assert.equal(parseHostMessage({ type: 'timeline/data/reply', id: 1, ok: true }), undefined);
    assert.equal(parseHostMessage({ type: 'timeline/data/reply', id: 1, ok: false }), undefined);
    assert.equal(
      parseHostMessage({ type: 'timeline/data/reply', id: 1, ok: true, data: { ...data, memories: 'x' } }),
      undefined,
    );
    assert.equal(parseHostMessage({ type: 'timeline/data/get', id: 1 }), undefined);
  });
});

describe('timeline text', () => {
  it('escapes markup so a memory with an onerror handler stays inert text', () => {
    const hostile = '<img src=x onerror="alert(1)"> & \'<script>alert(2)</script>';
    const escaped = escapeHtml(hostile);
    assert.equal(
      escaped,
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;&lt;script&gt;alert(2)&lt;/script&gt;',
    );
    assert.doesNotMatch(escaped, /[<>"']/);
  });

  it('flattens a memory to one line and cuts it with an ellipsis', () => {
    assert.equal(summaryLine('a\n\tb\u0000c  d'), 'a b c d');
    assert.equal(summaryLine('abcdefghij', 5), 'abcd…');
    assert.equal(summaryLine('abc', 5), 'abc');
  });
});

describe('timeline layout', () => {
  const memory = (id: string, validFrom: number, validTo: number | null): TimelineMemory => ({
    id,
    layer: 'semantic',
    kind: 'fact',
    status: 'active',
    content: id,
    validFrom,
    validTo,
    recordedAt: validFrom,
    version: 1,
  });

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

  it('zooms around the time under the pointer', () => {
    const v = zoom({ from: 0, to: 100 * 3_600_000, width: 100 }, 0.5, 50);
    assert.equal((v.from + v.to) / 2, 50 * 3_600_000);
    assert.equal(v.to - v.from, 50 * 3_600_000);
  });
});
