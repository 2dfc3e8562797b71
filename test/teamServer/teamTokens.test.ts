import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { grants } from '../../engine/teamServer/methodScopes';
import { addToken, parseScopes, revokeToken, TokenTable } from '../../engine/teamServer/teamTokens';
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
