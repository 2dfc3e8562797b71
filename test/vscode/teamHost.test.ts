import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../support/temp';
import { addToken, freePort, rpc, startTeamServer } from '../teamServer/teamServerProcess';
import type { TeamServerProcess } from '../teamServer/teamServerProcess';
import { ARTIFACTS, artifactDirectory } from './support/artifacts';
import { InHostRun } from './support/inHostRun';
import type { InHostReport } from './support/inHostRun';
import { installedTestHost } from './support/testHost';
import { createWorkspaceFixture } from './support/workspaceFixture';

/** The team runner, bundled by runVscodeTests.ts beside the main one. */
const RUNNER = path.join(ARTIFACTS, 'inHost', 'teamHostRunner.js');
const RUN_LIMIT_MS = 5 * 60_000;
const REPLICA_NOTE = 'The on-call handover happens on Monday at 10:00';

/**
 * The extension against a real `engram serve --team` process: engram.team.url and a token set
 * through the commands, the status item through offline, token refused and connected, and a
 * remember made in the window found on the server, and reads answered from the replica of the
 * team scope once a second server is killed (test/vscode/inHost/suites/teamSuite.ts).
 */
describe('the team server from a real VS Code extension host', () => {
  let run: InHostRun | undefined;
  let server: TeamServerProcess | undefined;
  /** The second server, which the last test kills (reads then come from the replica). */
  let replicaServer: TeamServerProcess | undefined;
  let token = '';
  let report: InHostReport = { finished: false, results: [], figures: {} };

  before(async () => {
    const db = path.join(tempDir('engram-team-host-', { afterTest: false }), 'team.db');
    token = addToken(db, 'alice', 'memory:read,memory:write');
    server = await startTeamServer(db, []);
    const replicaDb = path.join(tempDir('engram-team-host-replica-', { afterTest: false }), 'team.db');
    const replicaToken = addToken(replicaDb, 'bob', 'memory:read,memory:write');
    replicaServer = await startTeamServer(replicaDb, []);
    const seeded = await rpc(replicaServer.url, replicaToken, {
      id: 'host-replica-seed',
      method: 'remember',
      params: { content: REPLICA_NOTE },
    });
    assert.equal(seeded.status, 200);
    run = await InHostRun.start({
      host: installedTestHost(),
      dir: artifactDirectory('in-host-team'),
      workspace: createWorkspaceFixture('team'),
      runner: RUNNER,
      trusted: true,
      env: {
        ENGRAM_TEST_TEAM_URL: server.url,
        ENGRAM_TEST_TEAM_TOKEN: token,
        ENGRAM_TEST_TEAM_DEAD_URL: `http://127.0.0.1:${await freePort()}`,
        ENGRAM_TEST_TEAM_REPLICA_URL: replicaServer.url,
        ENGRAM_TEST_TEAM_REPLICA_TOKEN: replicaToken,
        ENGRAM_TEST_TEAM_REPLICA_PID: String(replicaServer.child.pid),
        ENGRAM_TEST_TEAM_REPLICA_NOTE: REPLICA_NOTE,
      },
    });
    report = await run.waitFor((r) => r.finished, RUN_LIMIT_MS);
  });

  after(async () => {
    await run?.stop();
    await server?.stop();
    await replicaServer?.stop();
  });

  it('ran the whole team suite', () => {
    assert.equal(report.finished, true, 'the in-host run did not finish; see .vscode-test/in-host-team');
    assert.equal(report.results.length, 6);
  });

  it('team tests', async (t) => {
    for (const result of report.results) {
      await t.test(result.name, () => {
        assert.ok(result.ok, result.error);
      });
    }
  });

  it("the window's remember, and the one it queued while offline, are on the server once each", async () => {
    const answer = await rpc(server!.url, token, { id: `list-${Date.now()}`, method: 'list', params: {} });
    const items = (answer.body['result'] as { items: Array<{ content: string; agent: string }> }).items;
    assert.deepEqual(items.map((m) => [m.content, m.agent]).sort(), [
      ['The team deploys from main only, through the release workflow', 'alice'],
      ['Written while the server was down', 'alice'],
    ]);
  });
});
