import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { ARTIFACTS, artifactDirectory } from './support/artifacts';
import { CLAUDE_SESSION_ID, claudeLine } from './support/claudeSession';
import { InHostRun } from './support/inHostRun';
import type { InHostReport } from './support/inHostRun';
import { installedTestHost } from './support/testHost';
import { createWorkspaceFixture } from './support/workspaceFixture';

/** The capture runner, bundled by runVscodeTests.ts beside the main one. */
const RUNNER = path.join(ARTIFACTS, 'inHost', 'captureHostRunner.js');
const RUN_LIMIT_MS = 5 * 60_000;

/**
 * The agents' stores in a temp folder (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME), with one
 * Claude Code session of the fixture workspace: the window finds it, asks once, and once enabled
 * reads it and what is appended to it (test/vscode/inHost/suites/captureSuite.ts).
 */
describe('capture in a real VS Code extension host', () => {
  let run: InHostRun | undefined;
  let report: InHostReport = { finished: false, results: [], figures: {} };

  before(async () => {
    const workspace = createWorkspaceFixture('capture');
    const stores = mkdtempSync(path.join(os.tmpdir(), 'engram-agent-stores-'));
    const project = path.join(stores, 'claude', 'projects', claudeProjectName(workspace));
    mkdirSync(project, { recursive: true });
    const session = path.join(project, `${CLAUDE_SESSION_ID}.jsonl`);
    writeFileSync(session, `${claudeLine(workspace, 1, 'Add a login rate limit')}\n`);
    run = await InHostRun.start({
      host: installedTestHost(),
      dir: artifactDirectory('in-host-capture'),
      workspace,
      runner: RUNNER,
      trusted: true,
      env: {
        CLAUDE_CONFIG_DIR: path.join(stores, 'claude'),
        CODEX_HOME: path.join(stores, 'codex'),
        GEMINI_CLI_HOME: stores,
        ENGRAM_TEST_CLAUDE_SESSION: session,
      },
    });
    report = await run.waitFor((r) => r.finished, RUN_LIMIT_MS);
  });

  after(async () => {
    await run?.stop();
  });

  it('ran the whole capture suite', () => {
    assert.equal(report.finished, true, 'the in-host run did not finish; see .vscode-test/in-host-capture');
    assert.equal(report.results.length, 6);
  });

  it('capture tests', async (t) => {
    for (const result of report.results) {
      await t.test(result.name, () => {
        assert.ok(result.ok, result.error);
      });
    }
  });
});
