import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ARTIFACTS, CHAT_MODEL_EXTENSION, artifactDirectory } from './support/artifacts';
import { InHostRun } from './support/inHostRun';
import type { InHostReport } from './support/inHostRun';
import { installedTestHost } from './support/testHost';
import { createWorkspaceFixture } from './support/workspaceFixture';

/** The lifecycle runner, bundled by runVscodeTests.ts beside the main one. */
const RUNNER = path.join(ARTIFACTS, 'inHost', 'lifecycleHostRunner.js');
const RUN_LIMIT_MS = 10 * 60_000;

/**
 * Engram: Consolidate Now (its summary and its undo, its summaries written by a VS Code language
 * model that a second extension registers) and the engram.lifecycle settings, in a window
 * of their own (test/vscode/inHost/suites/lifecycleSuite.ts): a fresh database, so that what is
 * consolidated or archived is only what the suite wrote.
 */
describe('the lifecycle in a real VS Code extension host', () => {
  let run: InHostRun | undefined;
  let report: InHostReport = { finished: false, results: [], figures: {} };

  before(async () => {
    run = await InHostRun.start({
      host: installedTestHost(),
      dir: artifactDirectory('in-host-lifecycle'),
      workspace: createWorkspaceFixture('lifecycle'),
      runner: RUNNER,
      trusted: true,
      // A chat model for Consolidate Now's model-written summaries.
      extensions: [CHAT_MODEL_EXTENSION],
    });
    report = await run.waitFor((r) => r.finished, RUN_LIMIT_MS);
  });

  after(async () => {
    await run?.stop();
  });

  it('ran the whole lifecycle suite', () => {
    assert.equal(report.finished, true, 'the in-host run did not finish; see .vscode-test/in-host-lifecycle');
    assert.equal(report.results.length, 4);
  });

  it('lifecycle tests', async (t) => {
    for (const result of report.results) {
      await t.test(result.name, () => {
        assert.ok(result.ok, result.error);
      });
    }
  });
});
