import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ARTIFACTS, IN_HOST_RUNNER, REPO_ROOT, artifactDirectory } from './support/artifacts';
import { launchChromium } from './support/browser';
import { freePort, waitForHttp } from './support/freePort';
import { ProcessGroup, delay } from './support/processGroup';
import { installedTestHost } from './support/testHost';
import { createWorkspaceFixture } from './support/workspaceFixture';
import type { InHostResult } from './inHost/harness';

interface InHostReport {
  finished: boolean;
  results: InHostResult[];
  figures: Record<string, number | string>;
}

/** The whole in-host run may take this long (first start of the engine and the model included). */
const RUN_LIMIT_MS = 10 * 60_000;

/**
 * Runs test/vscode/inHost in a real extension host: VS Code's server (from code-server) loads the
 * extension from this repository (extensionDevelopmentPath) and the bundled runner
 * (extensionTestsPath); Chromium opens the window that starts it. Each in-host test becomes a
 * subtest here.
 */
describe('inside a real VS Code extension host', () => {
  const host = installedTestHost();
  const dir = artifactDirectory('in-host');
  const resultsFile = path.join(dir, 'results.json');
  let server: ProcessGroup | undefined;
  let browser: Browser | undefined;
  let report: InHostReport = { finished: false, results: [], figures: {} };

  before(async () => {
    rmSync(resultsFile, { force: true });
    for (const sub of ['user', 'server', 'extensions'])
      rmSync(path.join(dir, sub), { recursive: true, force: true });
    const workspace = createWorkspaceFixture('in-host');
    const port = await freePort();
    server = ProcessGroup.start(
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
        '--disable-workspace-trust',
        '--user-data-dir',
        path.join(dir, 'user'),
        '--server-data-dir',
        path.join(dir, 'server'),
        '--extensions-dir',
        path.join(dir, 'extensions'),
      ],
      {
        cwd: workspace,
        env: {
          ...process.env,
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
      ['extensionTestsPath', remote(IN_HOST_RUNNER)],
      ['skipWelcome', 'true'],
    ]);
    browser = await launchChromium(host.chromium);
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error')
        writeFileSync(path.join(dir, 'browser-errors.log'), `${m.text()}\n`, { flag: 'a' });
    });
    await page.goto(
      `${base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`,
    );
    const until = Date.now() + RUN_LIMIT_MS;
    while (Date.now() < until) {
      if (existsSync(resultsFile)) {
        report = JSON.parse(readFileSync(resultsFile, 'utf8')) as InHostReport;
        if (report.finished) break;
      }
      await delay(250);
    }
    writeFileSync(path.join(ARTIFACTS, 'figures-in-host.json'), JSON.stringify(report.figures, null, 2));
    console.log(`in-host figures: ${JSON.stringify(report.figures)}`);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('ran every in-host test to the end', () => {
    assert.equal(report.finished, true, `the in-host run did not finish; see ${dir}/server.log`);
    assert.ok(report.results.length >= 20, `expected the whole in-host suite, got ${report.results.length}`);
  });

  // The in-host tests are known only after the run: each is reported as its own subtest here.
  it('in-host tests', async (t) => {
    for (const result of report.results) {
      await t.test(result.name, () => {
        assert.ok(result.ok, result.error);
      });
    }
  });
});
