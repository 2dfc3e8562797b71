import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { REPO_ROOT, VSIX_PATH, artifactDirectory } from './artifacts';
import { launchChromium } from './browser';
import { freePort, waitForHttp } from './freePort';
import { ProcessGroup } from './processGroup';
import { installedTestHost } from './testHost';
import { createWorkspaceFixture } from './workspaceFixture';
import { Workbench } from './workbench';

/** A code-server with the packaged extension on a fresh fixture workspace, and a browser on it. */
export interface Launched {
  page: Page;
  workbench: Workbench;
  workspace: string;
  /** Dialogs the page opened (none expected: memory text is inert). */
  dialogs: string[];
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** Runs on the workspace before code-server opens it (to start another engine host first). */
  beforeOpen?: (workspace: string) => Promise<void>;
  /**
   * User settings, written before code-server starts: a colour theme set here is the window's from
   * its first frame (switching it at runtime did not take effect within 60 s under load).
   */
  userSettings?: Record<string, unknown>;
}

/** Resolves once the Engram status bar item shows, i.e. the extension's engine is ready. */
export async function launchWorkbench(name: string, options: LaunchOptions = {}): Promise<Launched> {
  const host = installedTestHost();
  const dir = artifactDirectory(name);
  for (const sub of ['user', 'extensions']) rmSync(path.join(dir, sub), { recursive: true, force: true });
  const common = [
    '--user-data-dir',
    path.join(dir, 'user'),
    '--extensions-dir',
    path.join(dir, 'extensions'),
  ];
  if (options.userSettings) {
    mkdirSync(path.join(dir, 'user', 'User'), { recursive: true });
    writeFileSync(path.join(dir, 'user', 'User', 'settings.json'), JSON.stringify(options.userSettings));
  }
  execFileSync(host.node, [host.codeServerBin, ...common, '--install-extension', VSIX_PATH], {
    stdio: 'ignore',
  });
  const workspace = createWorkspaceFixture(name);
  await options.beforeOpen?.(workspace);
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
export function cliOn(workspace: string): (...args: string[]) => Promise<string> {
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
export async function runCommandOnce(launched: Launched, title: string, failureShot: string): Promise<void> {
  try {
    await launched.workbench.runCommand(title);
  } catch {
    await launched.workbench.screenshot(failureShot);
    await launched.page.keyboard.press('Escape');
    await launched.workbench.runCommand(title);
  }
}

/** A webview panel's page (the Graph's, the Timeline's) inside the webview's two iframes. */
export function graphViewOf(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}
