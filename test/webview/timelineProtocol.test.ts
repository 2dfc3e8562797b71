import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DataReply,
  DidChangeDataNotification,
  DidRevealMemoryNotification,
  GetDataRequest,
  OpenFileCommand,
  OpenMemoryCommand,
  OpenSessionCommand,
  OpenSymbolCommand,
  ReadyNotification,
  SelectionNotification,
  isRelativePath,
  parseHostMessage,
  parseWebviewMessage,
} from '../../webview/timeline/protocol';
import { restoreUiState } from '../../webview/timeline/uiState';
import { summaryLine } from '../../webview/shared/text';
import { escapeHtml } from '../../webview/timeline/text';

const data = {
  memories: [],
  versions: [],
  links: [],
  drift: [],
  scans: [],
  sessions: [],
  total: 0,
  truncated: false,
  now: 1,
};

/** Each guard with messages it must accept and messages it must refuse. */
const CASES: Array<{ name: string; is: (m: unknown) => boolean; good: unknown[]; bad: unknown[] }> = [
  {
    name: 'GetDataRequest',
    is: GetDataRequest.is,
    good: [
      { type: 'timeline/data/get', id: 0 },
      { type: 'timeline/data/get', id: 3 },
    ],
    bad: [
      { type: 'timeline/data/get' },
      { type: 'timeline/data/get', id: -1 },
      { type: 'timeline/data/get', id: 1.5 },
      { type: 'timeline/data/get', id: '1' },
    ],
  },
  {
    name: 'OpenMemoryCommand',
    is: OpenMemoryCommand.is,
    good: [{ type: 'timeline/memory/open', memoryId: 'm_01HX-abc' }],
    bad: [
      { type: 'timeline/memory/open' },
      { type: 'timeline/memory/open', memoryId: 42 },
      { type: 'timeline/memory/open', memoryId: '' },
      { type: 'timeline/memory/open', memoryId: '../../etc/passwd' },
      { type: 'timeline/memory/open', memoryId: 'x'.repeat(65) },
    ],
  },
  {
    name: 'OpenFileCommand',
    is: OpenFileCommand.is,
    good: [
      { type: 'timeline/file/open', path: 'src/config.ts' },
      { type: 'timeline/file/open', path: 'src/a.ts', line: 12 },
    ],
    bad: [
      { type: 'timeline/file/open', path: '/etc/passwd' },
      { type: 'timeline/file/open', path: 'C:\\Windows\\win.ini' },
      { type: 'timeline/file/open', path: 'src/../../secret' },
      { type: 'timeline/file/open', path: '..\\up' },
      { type: 'timeline/file/open', path: '' },
      { type: 'timeline/file/open', path: 'a\nb' },
      { type: 'timeline/file/open', path: 'src/a.ts', line: 0 },
      { type: 'timeline/file/open', path: 'src/a.ts', line: '3' },
      { type: 'timeline/file/open', path: 7 },
    ],
  },
  {
    name: 'OpenSymbolCommand',
    is: OpenSymbolCommand.is,
    good: [
      { type: 'timeline/symbol/open', name: 'login' },
      { type: 'timeline/symbol/open', name: 'AuthService.login' },
    ],
    bad: [
      { type: 'timeline/symbol/open', name: '' },
      { type: 'timeline/symbol/open', name: 'a b' },
      { type: 'timeline/symbol/open', name: '<img>' },
      { type: 'timeline/symbol/open', name: 'x'.repeat(201) },
      { type: 'timeline/symbol/open' },
    ],
  },
  {
    name: 'OpenSessionCommand',
    is: OpenSessionCommand.is,
    good: [
      { type: 'timeline/session/open', sessionId: '5f0c2a4e-1111-4a2b-9c3d-000000000001' },
      { type: 'timeline/session/open', sessionId: 'aider-2026-03-02T09:00:00' },
      { type: 'timeline/session/open', sessionId: '1733912345678' },
    ],
    bad: [
      { type: 'timeline/session/open' },
      { type: 'timeline/session/open', sessionId: '' },
      { type: 'timeline/session/open', sessionId: 7 },
      { type: 'timeline/session/open', sessionId: '../../etc/passwd' },
      { type: 'timeline/session/open', sessionId: 'a b' },
      { type: 'timeline/session/open', sessionId: 'x'.repeat(201) },
      { type: 'timeline/session/open', sessionId: 'a\nb' },
    ],
  },
  {
    name: 'ReadyNotification',
    is: ReadyNotification.is,
    good: [{ type: 'timeline/view/ready' }],
    bad: [{ type: 'timeline/view/Ready' }, { kind: 'timeline/view/ready' }],
  },
  {
    name: 'SelectionNotification',
    is: SelectionNotification.is,
    good: [
      { type: 'timeline/selection/changed', memoryId: 'm_1', shown: 4 },
      { type: 'timeline/selection/changed', memoryId: null, shown: 0 },
    ],
    bad: [
      { type: 'timeline/selection/changed', memoryId: 'm_1' },
      { type: 'timeline/selection/changed', memoryId: 'm 1', shown: 1 },
      { type: 'timeline/selection/changed', memoryId: null, shown: -1 },
      { type: 'timeline/selection/changed', shown: 1 },
    ],
  },
  {
    name: 'DataReply',
    is: DataReply.is,
    good: [
      { type: 'timeline/data/reply', id: 1, ok: true, data },
      { type: 'timeline/data/reply', id: 1, ok: false, error: 'engine closed' },
    ],
    bad: [
      { type: 'timeline/data/reply', id: 1, ok: true },
      { type: 'timeline/data/reply', id: 1, ok: false },
      { type: 'timeline/data/reply', ok: true, data },
      { type: 'timeline/data/reply', id: 1, ok: true, data: { ...data, memories: 'x' } },
      { type: 'timeline/data/reply', id: 1, ok: true, data: { ...data, drift: undefined } },
      { type: 'timeline/data/reply', id: 1, ok: true, data: { ...data, sessions: {} } },
      { type: 'timeline/data/reply', id: 1, ok: true, data: { ...data, total: '0' } },
    ],
  },
  {
    name: 'DidChangeDataNotification',
    is: DidChangeDataNotification.is,
    good: [{ type: 'timeline/data/DidChange' }],
    bad: [{ type: 'timeline/data/didchange' }],
  },
  {
    name: 'DidRevealMemoryNotification',
    is: DidRevealMemoryNotification.is,
    good: [{ type: 'timeline/memory/DidReveal', memoryId: 'm_01abc' }],
    bad: [{ type: 'timeline/memory/DidReveal' }, { type: 'timeline/memory/DidReveal', memoryId: '<script>' }],
  },
];

describe('timeline protocol guards', () => {
  for (const c of CASES) {
    it(`${c.name} accepts its messages and refuses malformed ones`, () => {
      for (const m of c.good) assert.equal(c.is(m), true, `accepts ${JSON.stringify(m)}`);
      for (const m of [...c.bad, null, undefined, 'x', [], {}, 42])
        assert.equal(c.is(m), false, `refuses ${JSON.stringify(m)}`);
    });
  }

  it('each direction accepts only its own messages', () => {
    const fromWebview = CASES.slice(0, 7).flatMap((c) => c.good);
    const fromHost = CASES.slice(7).flatMap((c) => c.good);
    for (const m of fromWebview) {
      assert.deepEqual(parseWebviewMessage(m), m);
      assert.equal(parseHostMessage(m), undefined, `the webview refuses ${JSON.stringify(m)}`);
    }
    for (const m of fromHost) {
      assert.deepEqual(parseHostMessage(m), m);
      assert.equal(parseWebviewMessage(m), undefined, `the host refuses ${JSON.stringify(m)}`);
    }
    assert.equal(parseWebviewMessage({ type: 'timeline/memory/delete', memoryId: 'abc' }), undefined);
  });

  it('relative paths never climb out or start at a root', () => {
    assert.equal(isRelativePath('a/b/c.ts'), true);
    assert.equal(isRelativePath('a/..b/c.ts'), true, 'a name that starts with two dots is fine');
    for (const bad of ['../a', 'a/../../b', '/a', '\\\\server\\share', 'D:x', 'a\u0000b', 'x'.repeat(1025)])
      assert.equal(isRelativePath(bad), false, bad);
  });
});

describe('timeline UI state', () => {
  it('restores what it saved and drops what does not fit', () => {
    const state = restoreUiState({
      from: 10,
      to: 20,
      filter: { hiddenLayers: ['semantic', 'cosmic'], kind: 'fact', agent: 3, text: 'x' },
      asOf: { on: true, t: 15, axis: 'valid' },
      brush: { from: 11, to: 'x' },
      selectedId: '<img>',
    });
    assert.equal(state.from, 10);
    assert.deepEqual(state.filter.hiddenLayers, ['semantic']);
    assert.equal(state.filter.kind, 'fact');
    assert.equal(state.filter.agent, '');
    assert.deepEqual(state.asOf, { on: true, t: 15, axis: 'valid' });
    assert.equal(state.brush, null);
    assert.equal(state.selectedId, null);
    assert.equal(restoreUiState(undefined).asOf.axis, 'transaction');
    assert.equal(restoreUiState({ from: 5, to: 1 }).from, undefined, 'an empty range is not restored');
  });
});

describe('timeline text', () => {
  it('escapes markup so a memory with an onerror handler stays inert text', () => {
    const escaped = escapeHtml('<img src=x onerror="alert(1)"> & \'<script>alert(2)</script>');
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
