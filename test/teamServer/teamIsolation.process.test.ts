import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { tempDir } from '../support/temp';
import { checkIsolation, startIsolationServer } from './teamIsolation';
import type { IsolationServer } from './teamIsolation';
import { addToken, rpc } from './teamServerProcess';

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

it('a token whose team the tokens file names wrongly (edited by hand) reaches no store: 403', async () => {
  const db = path.join(tempDir('engram-team-iso-bad-', { afterTest: false }), 'team.db');
  const token = addToken(db, 'mallory', 'memory:read,memory:write', 'gamma');
  const file = path.join(path.dirname(db), 'team-tokens.json');
  const run = await startIsolationServer(db, []);
  try {
    const contents = JSON.parse(readFileSync(file, 'utf8')) as {
      tokens: Array<{ user: string; team?: string }>;
    };
    for (const entry of contents.tokens) if (entry.user === 'mallory') entry.team = '../alpha';
    writeFileSync(file, JSON.stringify(contents));
    const answer = await rpc(run.server.url, token, {
      id: 'bad-team-write-1',
      method: 'remember',
      params: { content: 'mallory writes somewhere' },
    });
    assert.equal(answer.status, 403);
    assert.match(
      (answer.body['error'] as { message: string }).message,
      /names team "\.\.\/alpha", which is not a team name/,
    );
    assert.ok(!existsSync(path.join(path.dirname(db), 'alpha')));
    assert.ok(!existsSync(path.join(path.dirname(db), 'teams', 'gamma')));
  } finally {
    await run.server.stop();
  }
});
