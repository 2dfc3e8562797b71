import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TimelinePanel, timelineSerializer } from '../../../../extension/webviews/timelinePanel';
import type { RevealResult } from '../../../../extension/webviews/timelinePanel';
import { EXTENSION_ID, engramApi } from '../extensionApi';
import { eventually, test } from '../harness';

function timelineTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('engram.timeline'));
}

/** The tab model follows a new panel a moment later: wait for it. */
async function waitForTabs(count: number): Promise<vscode.Tab[]> {
  await eventually(`${count} timeline tabs`, () => timelineTabs().length === count || undefined, 10_000);
  return timelineTabs();
}

let hostileId = '';
let noteId = '';

test('Open Timeline creates one timeline webview panel, and a second call reveals it', async () => {
  const api = await engramApi();
  hostileId = (
    await api.engine.call('remember', { content: 'The timeline draws <img src=x onerror=alert(1)> as text' })
  ).memory.id;
  noteId = (
    await api.engine.call('remember', { content: 'Timeline suite: reveal this memory', tags: ['timeline'] })
  ).memory.id;
  const viewType = await vscode.commands.executeCommand<string>('engram.openTimeline');
  assert.equal(viewType, 'engram.timeline');
  const tabs = await waitForTabs(1);
  assert.equal(tabs[0]?.label, 'Engram Timeline');
  await vscode.commands.executeCommand('engram.openTimeline');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(timelineTabs().length, 1, 'opening again reveals the same panel');
});

test('Reveal in Timeline selects the memory once the data has arrived in the webview', async () => {
  const api = await engramApi();
  const expected = await api.engine.call('timeline', {});
  const result = await vscode.commands.executeCommand<RevealResult | undefined>(
    'engram.revealInTimeline',
    noteId,
  );
  assert.ok(result, 'the webview confirmed the selection');
  assert.equal(result.memoryId, noteId);
  assert.equal(result.shown, expected.memories.length, 'every loaded memory is drawn (no filter)');
  assert.equal(timelineTabs().length, 1);
  // From a Memories view row, as the context menu passes it.
  const fromRow = await vscode.commands.executeCommand<RevealResult | undefined>('engram.revealInTimeline', {
    type: 'memory',
    memory: { id: hostileId },
  });
  assert.equal(fromRow?.memoryId, hostileId);
  await vscode.window.tabGroups.close(timelineTabs());
  await waitForTabs(0);
});

test('Reveal in Timeline opens the panel when it is closed', async () => {
  assert.equal(timelineTabs().length, 0);
  const result = await vscode.commands.executeCommand<RevealResult | undefined>(
    'engram.revealInTimeline',
    noteId,
  );
  assert.equal(result?.memoryId, noteId);
  assert.equal((await waitForTabs(1)).length, 1);
  await vscode.window.tabGroups.close(timelineTabs());
  await waitForTabs(0);
});

test('the serializer restores a panel after a reload: the page, its CSP and its data come back', async () => {
  const api = await engramApi();
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  const log = vscode.window.createOutputChannel('Engram timeline test', { log: true });
  // What VS Code hands the serializer after a window reload: a bare panel of our view type.
  const panel = vscode.window.createWebviewPanel(
    'engram.timeline',
    'Engram Timeline',
    vscode.ViewColumn.Active,
    {
      enableScripts: false,
    },
  );
  await timelineSerializer(extension.extensionUri, api.engine, log).deserializeWebviewPanel(panel, {});
  assert.match(panel.webview.html, /Content-Security-Policy/);
  assert.match(panel.webview.html, /script-src 'nonce-[^']+'/);
  assert.equal(panel.webview.options.enableScripts, true);
  const restored = TimelinePanel.active;
  assert.ok(restored && restored.panel === panel, 'the restored panel is the live one');
  const result = await restored.reveal(noteId);
  assert.equal(result?.memoryId, noteId, 'the restored webview loaded the data and selected the memory');
  assert.ok((result?.shown ?? 0) > 0);
  restored.dispose();
  log.dispose();
  await waitForTabs(0);
});
