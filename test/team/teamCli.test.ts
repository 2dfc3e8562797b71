import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engram } from '../cli/engramCli';
import { teamClones } from './teamClones';

describe('engram team (CLI)', () => {
  it('propose, status, share --dry-run, share; the teammate sees it changed upstream after a pull', async () => {
    const [alice, bob] = teamClones({ 'README.md': '# app\n' }, ['alice', 'bob']);
    const remembered = await engram(alice!.root, [
      'remember',
      'Never commit generated files under dist/.',
      '--json',
    ]);
    assert.equal(remembered.code, 0, remembered.err);
    const id = (JSON.parse(remembered.out) as { memory: { id: string } }).memory.id;
    assert.equal((await engram(alice!.root, ['team', 'propose', id])).out, `proposed ${id} for sharing\n`);
    let status = await engram(alice!.root, ['team', 'status']);
    assert.equal(status.code, 0, status.err);
    assert.match(
      status.out,
      new RegExp(
        `^proposed for sharing \\(engram team share ID\\):\\n  ${id}  Never commit generated files`,
        'm',
      ),
    );
    const preview = await engram(alice!.root, ['team', 'share', id, '--dry-run']);
    assert.match(
      preview.out,
      new RegExp(`^would write \\.engram/team/${id}\\.md \\(version 1\\):\\n---\\nid: ${id}\\n`),
    );
    assert.equal(alice!.git('status', '--porcelain'), '', 'a dry run writes nothing');
    const shared = await engram(alice!.root, ['team', 'share', id]);
    assert.equal(shared.out, `wrote .engram/team/${id}.md (version 1): commit it to share it\n`);
    alice!.commit('share');
    alice!.git('push', '-q', 'origin', 'main');
    bob!.git('pull', '-q', 'origin', 'main');
    status = await engram(bob!.root, ['team', 'status']);
    assert.match(
      status.out,
      new RegExp(
        `^changed upstream:\\n  added    ${id} \\S+  Never commit generated files under dist/\\.$`,
        'm',
      ),
    );
    assert.match(
      status.out,
      /^in conflict \(both sides are indexed until the file is resolved\):\n {2}none$/m,
    );
    const found = await engram(bob!.root, ['recall', 'generated files', '--json']);
    assert.match(found.out, /Never commit generated files under dist/);
  });

  it('team commands without a workspace say so in one line', async () => {
    const [alice] = teamClones({ 'README.md': '# app\n' }, ['alice']);
    const run = await engram(alice!.root, ['--user', 'team', 'status']);
    assert.equal(run.code, 1);
    assert.match(run.err, /team memories need a workspace/);
  });
});
