import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ARTIFACTS, IN_HOST_RUNNER, artifactDirectory } from './support/artifacts';
import { InHostRun } from './support/inHostRun';
import type { InHostReport } from './support/inHostRun';
import { installedTestHost } from './support/testHost';
import { createWorkspaceFixture } from './support/workspaceFixture';

/** The whole in-host run may take this long (first start of the engine and the model included). */
const RUN_LIMIT_MS = 10 * 60_000;

/**
 * ENGRAM_VSCODE_WITHOUT_GIT=1 turns VS Code's git extension off (git.enabled: false), so the scan's
 * main-thread figures show the host without it: it reacts to every file the scan test copies, on
 * the thread Engram shares. (The server's --disable-extension does not reach a browser window's
 * extension host.) A second figure beside the default run's.
 */
const WITHOUT_GIT = process.env['ENGRAM_VSCODE_WITHOUT_GIT'] === '1';

/** Runs test/vscode/inHost's main suites in a real extension host; each in-host test becomes a subtest here. */
describe('inside a real VS Code extension host', () => {
  const dir = artifactDirectory('in-host');
  let run: InHostRun | undefined;
  let report: InHostReport = { finished: false, results: [], figures: {} };

  before(async () => {
    run = await InHostRun.start({
      host: installedTestHost(),
      dir,
      workspace: createWorkspaceFixture('in-host'),
      runner: IN_HOST_RUNNER,
      trusted: true,
      ...(WITHOUT_GIT ? { userSettings: { 'git.enabled': false } } : {}),
    });
    report = await run.waitFor((r) => r.finished, RUN_LIMIT_MS);
    writeFileSync(path.join(ARTIFACTS, 'figures-in-host.json'), JSON.stringify(report.figures, null, 2));
    console.log(
      `in-host figures${WITHOUT_GIT ? ' (git.enabled: false)' : ''}: ${JSON.stringify(report.figures)}`,
    );
  });

  after(async () => {
    await run?.stop();
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
