import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { engramApi } from '../extensionApi';
import { test } from '../harness';

/** The tab model follows a new panel a moment later: wait for it. */
async function waitForTabs(count: number): Promise<vscode.Tab[]> {
  for (let i = 0; i < 50 && timelineTabs().length !== count; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return timelineTabs();
}

function timelineTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('engram.timeline'));
}

test('Open Timeline creates one timeline webview panel, and a second call reveals it', async () => {
  const api = await engramApi();
  await api.engine.call('remember', { content: 'The timeline draws <img src=x onerror=alert(1)> as text' });
  const viewType = await vscode.commands.executeCommand<string>('engram.openTimeline');
  assert.equal(viewType, 'engram.timeline');
  const tabs = await waitForTabs(1);
  assert.equal(tabs.length, 1, 'a timeline tab is open');
  assert.equal(tabs[0]?.label, 'Engram Timeline');
  await vscode.commands.executeCommand('engram.openTimeline');
  assert.equal((await waitForTabs(2)).length, 1, 'opening again reveals the same panel');
  await vscode.window.tabGroups.close(timelineTabs());
  assert.equal((await waitForTabs(0)).length, 0);
});
