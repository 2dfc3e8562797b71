import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { tempDir } from '../support/temp';
import { checkIsolation, startIsolationServer } from './teamIsolation';
import type { IsolationServer } from './teamIsolation';

let setup: IsolationServer | undefined;
after(() => setup?.server.stop());

it("a team's token cannot read, list, search or change another team's memories (sql.js)", async () => {
  const db = path.join(tempDir('engram-team-iso-', { afterTest: false }), 'team.db');
  setup = await startIsolationServer(db, []);
  await checkIsolation(setup);
  // Each team's store is its own database beside the server's.
  for (const team of ['alpha', 'beta'])
    assert.ok(existsSync(path.join(path.dirname(db), 'teams', team)), team);
});
