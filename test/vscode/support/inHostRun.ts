import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { InHostResult } from '../inHost/harness';
import { REPO_ROOT } from './artifacts';
import { launchChromium } from './browser';
import { freePort, waitForHttp } from './freePort';
import { ProcessGroup, delay } from './processGroup';
import type { installedTestHost } from './testHost';

export interface InHostReport {
  finished: boolean;
  results: InHostResult[];
  figures: Record<string, number | string>;
}

/**
 * One run of an in-host runner bundle in a real extension host: VS Code's server (from
 * code-server) loads the extension from this repository and the runner as extensionTestsPath;
 * Chromium opens the window that starts it. `trusted: false` leaves workspace trust on, so the
 * folder opens in Restricted Mode (its trust prompt stays unanswered unless the caller clicks it).
 */
export class InHostRun {
  private constructor(
    private readonly server: ProcessGroup,
    private readonly browser: Browser,
    readonly page: Page,
    private readonly resultsFile: string,
  ) {}

  static async start(options: {
    host: ReturnType<typeof installedTestHost>;
    dir: string;
    workspace: string;
    runner: string;
    trusted: boolean;
    /** User settings for the window (written to the user data directory before it starts). */
    userSettings?: Record<string, unknown>;
    /** More environment for the server and its extension host (where the agents' stores are). */
    env?: Record<string, string>;
    /**
     * More extensions to load beside Engram, each a folder with its package.json, installed into
     * the run's extensions directory (the web workbench keeps one extensionDevelopmentPath only).
     */
    extensions?: string[];
  }): Promise<InHostRun> {
    const { host, dir } = options;
    const resultsFile = path.join(dir, 'results.json');
    rmSync(resultsFile, { force: true });
    for (const sub of ['user', 'server', 'extensions'])
      rmSync(path.join(dir, sub), { recursive: true, force: true });
    if (options.userSettings) {
      mkdirSync(path.join(dir, 'user', 'User'), { recursive: true });
      writeFileSync(path.join(dir, 'user', 'User', 'settings.json'), JSON.stringify(options.userSettings));
    }
    for (const folder of options.extensions ?? []) installExtension(folder, path.join(dir, 'extensions'));
    const port = await freePort();
    const server = ProcessGroup.start(
      host.node,
      [
        host.vscodeServerMain,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--without-connection-token',
        '--accept-server-license-terms',
        '--enable-smoke-test-driver',
        '--disable-telemetry',
        ...(options.trusted ? ['--disable-workspace-trust'] : []),
        '--user-data-dir',
        path.join(dir, 'user'),
        '--server-data-dir',
        path.join(dir, 'server'),
        '--extensions-dir',
        path.join(dir, 'extensions'),
      ],
      {
        cwd: options.workspace,
        env: {
          ...process.env,
          ...options.env,
          ENGRAM_VSCODE_RESULTS: resultsFile,
          ENGRAM_USER_DB: path.join(dir, 'user.db'),
        },
        logFile: path.join(dir, 'server.log'),
      },
    );
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(base, 60_000);
    const remote = (file: string) => `vscode-remote://127.0.0.1:${port}${file}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(REPO_ROOT)],
      ['extensionTestsPath', remote(options.runner)],
      ['skipWelcome', 'true'],
    ]);
    const browser = await launchChromium(host.chromium);
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error')
        writeFileSync(path.join(dir, 'browser-errors.log'), `${m.text()}\n`, { flag: 'a' });
    });
    await page.goto(
      `${base}/?folder=${encodeURIComponent(options.workspace)}&payload=${encodeURIComponent(payload)}`,
    );
    return new InHostRun(server, browser, page, resultsFile);
  }

  /** The runner's report so far (it rewrites the file after every test). */
  report(): InHostReport {
    if (!existsSync(this.resultsFile)) return { finished: false, results: [], figures: {} };
    return JSON.parse(readFileSync(this.resultsFile, 'utf8')) as InHostReport;
  }

  /** Polls the report until `done` says so or the time runs out; returns the last report. */
  async waitFor(done: (report: InHostReport) => boolean, limitMs: number): Promise<InHostReport> {
    const until = Date.now() + limitMs;
    let report = this.report();
    while (!done(report) && Date.now() < until) {
      await delay(250);
      report = this.report();
    }
    return report;
  }

  async stop(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.server.stop();
  }
}

/**
 * Copies an extension folder into an extensions directory and lists it in that directory's
 * extensions.json, the manifest VS Code's server reads its installed extensions from.
 */
function installExtension(folder: string, extensionsDir: string): void {
  const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const id = `${manifest.publisher}.${manifest.name}`;
  const relativeLocation = `${id}-${manifest.version}`;
  const location = path.join(extensionsDir, relativeLocation);
  cpSync(folder, location, { recursive: true });
  const listFile = path.join(extensionsDir, 'extensions.json');
  const listed = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, 'utf8')) as unknown[]) : [];
  listed.push({
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, scheme: 'file', path: location },
    relativeLocation,
    metadata: { installedTimestamp: Date.now(), source: 'resource' },
  });
  writeFileSync(listFile, JSON.stringify(listed));
}
