import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { callTool, startBridge } from '../mcp/bridgeProcess';
import type { ConnectedBridge } from '../mcp/bridgeProcess';
import { REPO_ROOT, VSIX_PATH, artifactDirectory } from './support/artifacts';
import { graphParts, hoverNode } from '../webview/canvasSpots';
import { launchChromium } from './support/browser';
import { freePort, waitForHttp } from './support/freePort';
import { ProcessGroup } from './support/processGroup';
import { installedTestHost } from './support/testHost';
import { createWorkspaceFixture } from './support/workspaceFixture';
import { Workbench } from './support/workbench';

/** A code-server with the packaged extension on a fresh fixture workspace, and a browser on it. */
interface Launched {
  page: Page;
  workbench: Workbench;
  workspace: string;
  /** Dialogs the page opened (none expected: memory text is inert). */
  dialogs: string[];
  stop(): Promise<void>;
}

/**
 * `beforeOpen` runs on the workspace before code-server opens it (to start another engine host
 * first); resolves once the Engram status bar item shows, i.e. the extension's engine is ready.
 */
async function launchWorkbench(
  name: string,
  beforeOpen?: (workspace: string) => Promise<void>,
): Promise<Launched> {
  const host = installedTestHost();
  const dir = artifactDirectory(name);
  for (const sub of ['user', 'extensions']) rmSync(path.join(dir, sub), { recursive: true, force: true });
  const common = [
    '--user-data-dir',
    path.join(dir, 'user'),
    '--extensions-dir',
    path.join(dir, 'extensions'),
  ];
  execFileSync(host.node, [host.codeServerBin, ...common, '--install-extension', VSIX_PATH], {
    stdio: 'ignore',
  });
  const workspace = createWorkspaceFixture(name);
  await beforeOpen?.(workspace);
  const port = await freePort();
  const server = ProcessGroup.start(
    host.node,
    [
      host.codeServerBin,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      ...common,
      workspace,
    ],
    {
      cwd: workspace,
      env: { ...process.env, ENGRAM_USER_DB: path.join(dir, 'user.db') },
      logFile: path.join(dir, 'code-server.log'),
    },
  );
  let browser: Browser | undefined;
  const stop = async (): Promise<void> => {
    await browser?.close();
    await server.stop();
  };
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`, 60_000);
    browser = await launchChromium(host.chromium);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // A generous ceiling: on a loaded machine the workbench takes well over the default 30 s.
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`, { timeout: 180_000 });
    const workbench = new Workbench(page);
    await workbench.ready();
    await page
      .locator('.statusbar-item', { hasText: /^\s*\d+\s*$/ })
      .or(page.locator('[id="engram.engram.engram.status"]'))
      .first()
      .waitFor({ timeout: 60_000 });
    return { page, workbench, workspace, dialogs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The CLI (dist/cli.js) on the workspace's database: a short-lived client of whichever process hosts it. */
function cliOn(workspace: string): (...args: string[]) => Promise<string> {
  const cli = path.join(REPO_ROOT, 'dist', 'cli.js');
  return async (...args) =>
    (
      await promisify(execFile)(
        process.execPath,
        [cli, ...args, '--db', path.join(workspace, '.engram', 'memory.db')],
        { timeout: 60_000 },
      )
    ).stdout;
}

/**
 * The palette, retried once: opened in the first seconds after start-up it can list only VS Code's
 * own commands ("similar commands" for ours, seen in the screenshot of such an attempt).
 */
async function runCommandOnce(launched: Launched, title: string, failureShot: string): Promise<void> {
  try {
    await launched.workbench.runCommand(title);
  } catch {
    await launched.workbench.screenshot(failureShot);
    await launched.page.keyboard.press('Escape');
    await launched.workbench.runCommand(title);
  }
}

/** The Graph panel's page inside the webview's two iframes. */
function graphViewOf(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

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
      await graphView().locator('#find input').fill('docker');
      await status.filter({ hasText: /[1-9]\d* match “docker”/ }).waitFor({ timeout: 30_000 });
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
    launched = await launchWorkbench('e2e-graph-client', async (workspace) => {
      bridge = await startBridge(workspace, { name: 'e2e-agent' });
      await callTool(bridge.client, 'memory_remember', {
        content: 'Caroline decided that sessions in src/auth/login.ts last 12 hours',
      });
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
