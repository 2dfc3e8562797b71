import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { callTool, startBridge } from '../mcp/bridgeProcess';
import type { ConnectedBridge } from '../mcp/bridgeProcess';
import { artifactDirectory } from './support/artifacts';
import { graphParts, hoverNode } from '../webview/canvasSpots';
import { cliOn, graphViewOf, launchWorkbench, runCommandOnce } from './support/launchWorkbench';
import type { Launched } from './support/launchWorkbench';
import type { Workbench } from './support/workbench';

/**
 * The Graph panel in the packaged extension, in code-server, driven like a user: the command
 * palette opens it; the CLI (another process, a client of the window's engine host) writes and
 * recalls, and the panel follows; a reload brings the panel back. Screenshots land in
 * .vscode-test/screenshots/.
 */
describe('end to end: the Graph panel in code-server', () => {
  const shots = artifactDirectory('screenshots');
  const shot = (name: string) => path.join(shots, `${name}.png`);
  let launched: Launched | undefined;
  let page: Page;
  let workbench: Workbench;
  let dialogs: string[];
  let engram: (...args: string[]) => Promise<string>;
  const graphView = (): FrameLocator => graphViewOf(page);

  before(async () => {
    launched = await launchWorkbench('e2e-graph');
    ({ page, workbench, dialogs } = launched);
    engram = cliOn(launched.workspace);
  });

  after(async () => {
    await launched?.stop();
  });

  it('Engram: Open Graph draws the entities and memories the engine has', async () => {
    await engram('remember', 'Caroline decided that sessions in src/auth/login.ts last 12 hours');
    await engram('remember', 'Melanie hashes passwords with sha256 in src/crypto/hash.ts');
    await workbench.runCommand('Engram: Open Graph');
    await page.locator('.tabs-container .tab', { hasText: 'Engram Graph' }).first().waitFor();
    const status = graphView().locator('#status');
    await status
      .filter({ hasText: /^[1-9]\d* entities, \d+ memories, \d+ links · overview/ })
      .waitFor({ timeout: 60_000 });
    await graphView().locator('body[data-layout="done"]').waitFor({ timeout: 60_000 });
    const box = await graphView().locator('#graph canvas').first().boundingBox();
    assert.ok(box && box.width > 300 && box.height > 200, 'the graph fills the panel');
    await workbench.screenshot(shot('graph-1-overview'));
  });

  it('starts from an entity found by name and explores its neighbourhood', async () => {
    await graphView().locator('#start input').fill('login.ts');
    const result = graphView().locator('#results button', { hasText: 'src/auth/login.ts' }).first();
    await result.waitFor({ timeout: 30_000 });
    await result.click();
    await graphView()
      .locator('#status', { hasText: 'from src/auth/login.ts, 1 hop' })
      .waitFor({ timeout: 30_000 });
    await graphView().locator('body[data-layout="done"]').waitFor({ timeout: 60_000 });
    await workbench.screenshot(shot('graph-3-neighbourhood'));
  });

  it('follows writes and recalls made by another process (the CLI), keeping memory text inert', async () => {
    await engram('remember', 'Hostile note <img src=x onerror="alert(1)"> about src/auth/login.ts');
    // The panel (showing the neighbourhood of src/auth/login.ts) reloads after a write by another
    // client of the engine host, and the new memory is in it, as text.
    await graphView()
      .locator('#node-list li', { hasText: '<img src=x' })
      .waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await graphView().locator('img').count(), 0, 'no element was made from the memory');
    await engram('recall', 'how long do sessions last');
    const banner = graphView().locator('#recall-text');
    await banner.filter({ hasText: 'how long do sessions last' }).waitFor({ timeout: 30_000 });
    assert.match(await banner.innerText(), /\(cli\): [1-9]\d* memories/);
    await graphView().locator('body[data-lit]:not([data-lit="0"])').waitFor({ timeout: 10_000 });
    await workbench.screenshot(shot('graph-2-cli-recall-lit'));
    assert.deepEqual(dialogs, []);
  });

  it('never goes blank: a tool, a memory node clicked, its editor closed, Overview, Find (issue 19)', async () => {
    const pageErrors: string[] = [];
    const onError = (e: Error) => pageErrors.push(e.message);
    const onConsole = (m: { type(): string; text(): string }) => {
      if (m.type() === 'error' && /areNeighbors|setting 'x'/.test(m.text())) pageErrors.push(m.text());
    };
    page.on('pageerror', onError);
    page.on('console', onConsole);
    try {
      await engram('remember', 'We deploy the api with docker and run the tests with vitest');
      await engram('remember', 'The docker image for the api is built from node 20 alpine');
      // Start from an entity: the tool, found by name.
      await graphView().locator('#start input').fill('docker');
      const result = graphView()
        .locator('#results button', { hasText: /docker · tool/i })
        .first();
      await result.waitFor({ timeout: 30_000 });
      await result.click();
      await graphView()
        .locator('#status', { hasText: /from docker, 1 hop/i })
        .waitFor({ timeout: 30_000 });
      await graphView().locator('body[data-layout="done"]').waitFor({ timeout: 60_000 });
      // Click a memory node, found on the canvas by its tooltip, like a user pointing at it.
      const { canvas, tooltip } = graphParts(graphView());
      // Memory tabs are named by the memory's words (extension/memoryText.ts memoryTitle).
      const memoryTab = page
        .locator('.tabs-container .tab', { hasText: /^\s*(?:We deploy the api|The docker image for)/ })
        .first();
      // Pointed at and clicked; once more if no editor opened (a redraw moved the node meanwhile).
      for (let attempt = 1; ; attempt++) {
        const at = await hoverNode(page, canvas, tooltip, /click: open ·/);
        await page.mouse.click(at.x, at.y);
        const opened = await memoryTab
          .waitFor({ timeout: 15_000 })
          .then(() => true)
          .catch(() => false);
        if (opened) break;
        if (attempt === 3) throw new Error('clicking a memory node opened no editor, 3 times');
      }
      // While the pointer still rests on the node, another process writes (an agent, the CLI, a
      // rescan): the panel reloads the neighbourhood under the hovered node.
      await engram('remember', 'The api tests run postgres 16 in docker, started by the compose file');
      await graphView()
        .locator('#node-list li', { hasText: 'tests run postgres 16 in docker' })
        .waitFor({ state: 'attached', timeout: 30_000 });
      await workbench.screenshot(shot('graph-6-memory-opened'));
      // Close the editor it opened, with the mouse on its tab's close button.
      await memoryTab.hover();
      await memoryTab.locator('.tab-actions .action-label').first().click();
      await memoryTab.waitFor({ state: 'detached', timeout: 30_000 });
      await graphView().locator('#overview').click();
      const status = graphView().locator('#status');
      await status
        .filter({ hasText: /^[1-9]\d* entities, \d+ memories, \d+ links · overview/ })
        .waitFor({ timeout: 30_000 });
      // Find a word of an entity the overview shows (which entities are the best connected
      // depends on the recalls and writes so far: docker is not always among them).
      const entities = await graphView().locator('#node-list li').allTextContents();
      const label = entities.map((text) => /^[a-z]+: (.+)$/.exec(text)?.[1]).find((l) => l !== undefined);
      const word = (/[A-Za-z][A-Za-z0-9]{2,}/.exec(label ?? '')?.[0] ?? 'docker').toLowerCase();
      await graphView().locator('#find input').fill(word);
      await status.filter({ hasText: new RegExp(`[1-9]\\d* match “${word}”`) }).waitFor({ timeout: 30_000 });
      await workbench.screenshot(shot('graph-7-overview-find-after-memory'));
      assert.deepEqual(pageErrors, []);
      // Back to where the reload test expects the panel to be.
      await graphView().locator('#find input').fill('');
      await graphView().locator('#start input').fill('login.ts');
      const login = graphView().locator('#results button', { hasText: 'src/auth/login.ts' }).first();
      await login.waitFor({ timeout: 30_000 });
      await login.click();
      await status.filter({ hasText: 'from src/auth/login.ts, 1 hop' }).waitFor({ timeout: 30_000 });
    } finally {
      page.off('pageerror', onError);
      page.off('console', onConsole);
    }
  });

  it('comes back after a window reload, showing the same start (the serializer and the saved UI state)', async () => {
    // Reload Window shuts the workbench down properly, so the webview's state is stored first.
    const reloaded = page.waitForEvent('load', { timeout: 60_000 });
    await workbench.runCommand('Developer: Reload Window');
    await reloaded;
    await workbench.ready();
    await page
      .locator('.tabs-container .tab', { hasText: 'Engram Graph' })
      .first()
      .waitFor({ timeout: 60_000 });
    await graphView()
      .locator('#status', { hasText: 'from src/auth/login.ts, 1 hop' })
      .waitFor({ timeout: 60_000 });
    await workbench.screenshot(shot('graph-4-restored'));
    assert.deepEqual(dialogs, []);
  });
});

/**
 * The same panel in a window that is only a client: the MCP bridge was hosting the workspace's
 * database before VS Code opened it, so every recall runs in the bridge's process; the host sends
 * its activity to the window, and the panel lights up for the CLI's and the agent's recalls.
 */
describe('end to end: the Graph panel of a window that joined an MCP bridge hosting the database', () => {
  const shots = artifactDirectory('screenshots');
  let bridge: ConnectedBridge | undefined;
  let launched: Launched | undefined;
  let page: Page;
  let engram: (...args: string[]) => Promise<string>;
  const graphView = (): FrameLocator => graphViewOf(page);

  before(async () => {
    launched = await launchWorkbench('e2e-graph-client', {
      beforeOpen: async (workspace) => {
        bridge = await startBridge(workspace, { name: 'e2e-agent' });
        await callTool(bridge.client, 'memory_remember', {
          content: 'Caroline decided that sessions in src/auth/login.ts last 12 hours',
        });
      },
    });
    page = launched.page;
    engram = cliOn(launched.workspace);
  });

  after(async () => {
    await launched?.stop();
    await bridge?.close();
  });

  it('the bridge still hosts; the CLI and the agent recall, and the graph lights up with their queries', async () => {
    const lock = JSON.parse(
      readFileSync(path.join(launched!.workspace, '.engram', 'memory.db.lock'), 'utf8'),
    ) as { pid: number };
    assert.equal(lock.pid, bridge!.pid, 'the MCP bridge holds the database; the window is its client');
    await runCommandOnce(
      launched!,
      'Engram: Open Graph',
      path.join(shots, 'graph-5-client-palette-failed.png'),
    );
    await graphView()
      .locator('#status')
      .filter({ hasText: /^[1-9]\d* entities, \d+ memories, \d+ links · overview/ })
      .waitFor({ timeout: 60_000 });
    await graphView().locator('body[data-layout="done"]').waitFor({ timeout: 60_000 });

    await engram('recall', 'how long do sessions last');
    const banner = graphView().locator('#recall-text');
    await banner.filter({ hasText: 'how long do sessions last' }).waitFor({ timeout: 30_000 });
    assert.match(await banner.innerText(), /\(cli\): [1-9]\d* memories/);
    await graphView().locator('body[data-lit]:not([data-lit="0"])').waitFor({ timeout: 10_000 });
    await launched!.workbench.screenshot(path.join(shots, 'graph-5-client-of-bridge-cli-recall.png'));

    await callTool(bridge!.client, 'memory_recall', { query: 'who decided the session length' });
    await banner.filter({ hasText: 'who decided the session length' }).waitFor({ timeout: 30_000 });
    assert.match(await banner.innerText(), /\(mcp[^)]*\): [1-9]\d* memories/);

    // A write by the agent reloads the panel (the window did not make it, so nothing else would).
    await callTool(bridge!.client, 'memory_remember', {
      content: 'Melanie rotates the signing keys in src/auth/keys.ts every 90 days',
    });
    await graphView()
      .locator('#node-list li', { hasText: 'rotates the signing keys' })
      .waitFor({ state: 'attached', timeout: 30_000 });
    assert.deepEqual(launched!.dialogs, []);
  });

  it("the Timeline panel reloads for the agent's writes too", async () => {
    await runCommandOnce(
      launched!,
      'View: Close All Editors',
      path.join(shots, 'timeline-client-close-failed.png'),
    );
    await runCommandOnce(
      launched!,
      'Engram: Open Timeline',
      path.join(shots, 'timeline-client-palette-failed.png'),
    );
    const status = graphView().locator('#status');
    await status.filter({ hasText: / of \d+ memories/ }).waitFor({ timeout: 60_000 });
    const before = Number(/ of (\d+) memories/.exec(await status.innerText())?.[1]);
    const countItem = launched!.page.locator('[id="engram.engram.engram.status"]');
    const countBefore = Number(/(\d+)/.exec(await countItem.innerText())?.[1]);
    await callTool(bridge!.client, 'memory_remember', {
      content: 'Ravi owns the release train from January',
    });
    await status.filter({ hasText: ` of ${before + 1} memories` }).waitFor({ timeout: 30_000 });
    // The status bar's count (and the Memories view, CodeLens, hovers: the same event) re-reads
    // for another process's write too, without the window losing and regaining focus.
    await countItem
      .filter({ hasText: new RegExp(`^\\D*${countBefore + 1}\\b`) })
      .waitFor({ timeout: 30_000 });
    await launched!.workbench.screenshot(path.join(shots, 'timeline-client-of-bridge-reloaded.png'));
  });
});
