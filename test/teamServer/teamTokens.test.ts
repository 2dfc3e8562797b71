import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { grants } from '../../engine/teamServer/methodScopes';
import {
  addToken,
  parseScopes,
  readTokens,
  revokeToken,
  teamOf,
  TokenTable,
} from '../../engine/teamServer/teamTokens';
import type { TeamToken } from '../../engine/teamServer/teamTokens';
import { tempDir } from '../support/temp';

it('the tokens file keeps only hashes, readable by its owner only', () => {
  const file = path.join(tempDir(), 'team-tokens.json');
  const { token, entry } = addToken(file, 'alice', ['memory:read'], Date.now());
  const text = readFileSync(file, 'utf8');
  assert.ok(!text.includes(token), 'the token itself is not stored');
  assert.ok(text.includes(entry.hash));
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
});

it('a running table sees tokens added and revoked, and keeps its last table over a broken file', () => {
  const file = path.join(tempDir(), 'team-tokens.json');
  const table = new TokenTable(file);
  const { token, entry } = addToken(file, 'alice', ['memory:write'], Date.now());
  assert.equal(table.find(token)?.user, 'alice');
  assert.equal(table.find(`${token}x`), undefined);
  revokeToken(file, entry.id, Date.now());
  assert.equal(table.find(token), undefined);
  const second = addToken(file, 'bob', ['memory:read'], Date.now());
  assert.equal(table.find(second.token)?.user, 'bob');
  writeFileSync(file, '{"tokens": [half written');
  assert.equal(table.find(second.token)?.user, 'bob');
  assert.throws(() => new TokenTable(file), /is not a tokens file/);
});

it('scopes: unknown ones are refused by name; admin holds all, write holds read', () => {
  assert.deepEqual(parseScopes('memory:read, memory:write'), ['memory:read', 'memory:write']);
  assert.throws(
    () => parseScopes('memory:read,root'),
    /unknown scope "root": expected memory:read, memory:write, admin/,
  );
  assert.throws(() => addToken(path.join(tempDir(), 't.json'), 'a b', ['admin'], 0), /user must be/);
  assert.ok(grants(['admin'], 'memory:write'));
  assert.ok(grants(['memory:write'], 'memory:read'));
  assert.ok(!grants(['memory:read'], 'memory:write'));
  assert.ok(!grants(['memory:write'], 'admin'));
});

it('teams: a token names its team, one made before teams is in the default team, bad names refused', () => {
  const file = path.join(tempDir('engram-tokens-'), 'team-tokens.json');
  const { entry } = addToken(file, 'alice', ['memory:read'], 0, 'payments_eu');
  assert.equal(entry.team, 'payments_eu');
  const { entry: plain } = addToken(file, 'bob', ['memory:read'], 0);
  assert.equal(teamOf(plain), 'default');
  const { team: _team, ...fields } = plain;
  const madeBeforeTeams: TeamToken = fields;
  assert.equal(teamOf(madeBeforeTeams), 'default');
  for (const bad of ['Payments', 'a-b', '_x', '', 'x'.repeat(41), '../etc'])
    assert.throws(
      () => addToken(file, 'carol', ['memory:read'], 0, bad),
      /team must be 1-40 lower-case letters, digits or _ \(not first\); got/,
      bad,
    );
  assert.equal(readTokens(file).length, 2, 'a refused token is not written');
});
