import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ARTIFACTS, SCREENSHOTS, artifactDirectory } from './support/artifacts';
import { InHostRun } from './support/inHostRun';
import type { InHostReport } from './support/inHostRun';
import { installedTestHost } from './support/testHost';
import { Workbench } from './support/workbench';
import { createWorkspaceFixture } from './support/workspaceFixture';

/** The Restricted Mode runner, bundled by runVscodeTests.ts beside the main one. */
const RUNNER = path.join(ARTIFACTS, 'inHost', 'untrustedRunner.js');
const RUN_LIMIT_MS = 6 * 60_000;

/**
 * Workspace trust on (no --disable-workspace-trust): the fixture folder opens in Restricted Mode.
 * The in-host suite checks what works untrusted; then this test answers VS Code's trust prompt in
 * the browser, as a user would, and the suite checks that the workspace gets scanned.
 */
describe('a real VS Code extension host in Restricted Mode', () => {
  let run: InHostRun | undefined;
  let report: InHostReport = { finished: false, results: [], figures: {} };

  before(async () => {
    run = await InHostRun.start({
      host: installedTestHost(),
      dir: artifactDirectory('in-host-untrusted'),
      workspace: createWorkspaceFixture('untrusted'),
      runner: RUNNER,
      trusted: false,
    });
    // The first two tests run untrusted; the third waits for trust.
    await run.waitFor((r) => r.results.length >= 2 || r.finished, RUN_LIMIT_MS);
    await run.page.screenshot({ path: path.join(SCREENSHOTS, 'untrusted-before-trust.png') });
    // As a user would: Workspaces: Manage Workspace Trust from the palette, then Trust.
    const workbench = new Workbench(run.page);
    await workbench.ready();
    await run.page.keyboard.press('Escape');
    await workbench.runCommand('Manage Workspace Trust');
    const trust = run.page.getByRole('button', { name: /^Trust( Folder)?$/ }).first();
    await trust.waitFor({ timeout: 60_000 });
    await run.page.screenshot({ path: path.join(SCREENSHOTS, 'untrusted-trust-editor.png') });
    await trust.click();
    report = await run.waitFor((r) => r.finished, RUN_LIMIT_MS);
    await run.page.screenshot({ path: path.join(SCREENSHOTS, 'untrusted-after-trust.png') });
  });

  after(async () => {
    await run?.stop();
  });

  it('ran the whole Restricted Mode suite', () => {
    assert.equal(report.finished, true, 'the in-host run did not finish; see .vscode-test/in-host-untrusted');
    assert.equal(report.results.length, 4);
  });

  it('Restricted Mode tests', async (t) => {
    for (const result of report.results) {
      await t.test(result.name, () => {
        assert.ok(result.ok, result.error);
      });
    }
  });
});
