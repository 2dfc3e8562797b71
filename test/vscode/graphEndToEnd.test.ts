import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { REPO_ROOT, VSIX_PATH, artifactDirectory } from './support/artifacts';
import { launchChromium } from './support/browser';
import { freePort, waitForHttp } from './support/freePort';
import { ProcessGroup } from './support/processGroup';
import { installedTestHost } from './support/testHost';
import { createWorkspaceFixture } from './support/workspaceFixture';
import { Workbench } from './support/workbench';

/**
 * The Graph panel in the packaged extension, in code-server, driven like a user: the command
 * palette opens it; the CLI (another process, a client of the window's engine host) writes and
 * recalls, and the panel follows; a reload brings the panel back. Screenshots land in
 * .vscode-test/screenshots/.
 */
describe('end to end: the Graph panel in code-server', () => {
  const host = installedTestHost();
  const dir = artifactDirectory('e2e-graph');
  const shots = artifactDirectory('screenshots');
  const shot = (name: string) => path.join(shots, `${name}.png`);
  const cli = path.join(REPO_ROOT, 'dist', 'cli.js');
  let server: ProcessGroup | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let workbench: Workbench;
  let workspace: string;
  const dialogs: string[] = [];

  const engram = async (...args: string[]) =>
    (
      await promisify(execFile)(
        process.execPath,
        [cli, ...args, '--db', path.join(workspace, '.engram', 'memory.db')],
        { timeout: 60_000 },
      )
    ).stdout;
  const graphView = (): FrameLocator =>
    page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');

  before(async () => {
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
    workspace = createWorkspaceFixture('e2e-graph');
    const port = await freePort();
    server = ProcessGroup.start(
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
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`, 60_000);
    browser = await launchChromium(host.chromium);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`);
    workbench = new Workbench(page);
    await workbench.ready();
    await page
      .locator('.statusbar-item', { hasText: /^\s*\d+\s*$/ })
      .or(page.locator('[id="engram.engram.engram.status"]'))
      .first()
      .waitFor({ timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
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
