import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engram } from '../cli/engramCli';
import { LINKED_SESSION, linkedWorkspace } from './linkedWorkspace';

test('engram why FILE:LINE names the session, its decision and the commit that carry the line', async () => {
  const { root, env, fix } = await linkedWorkspace();
  const why = await engram(root, ['why', 'src/dates.ts:2'], env);
  assert.equal(why.code, 0, why.err);
  const lines = why.out.trimEnd().split('\n');
  assert.match(
    lines[0] ?? '',
    new RegExp(`^src/dates\\.ts:2  last changed in ${fix.slice(0, 7)} "Fix leap years for centuries"`),
  );
  assert.equal(lines[1], '1 session (linked to that commit):');
  assert.match(lines[2] ?? '', new RegExp(`^${LINKED_SESSION}  claude-code  .*  branch fix/leap$`));
  assert.equal(lines[3], '  asked: "isLeap is wrong for 1900. Use the Gregorian rule, not the Julian one."');
  assert.match(
    lines[4] ?? '',
    new RegExp(`^  summary \\[\\S+\\] .*Commits: ${fix.slice(0, 7)} "Fix leap years for centuries"\\.$`),
  );
  assert.match(lines[5] ?? '', /^ {2}decision \[\S+\] Use the Gregorian rule, not the Julian one\.$/);
  assert.equal(lines[6], `  commit ${fix.slice(0, 7)} "Fix leap years for centuries" (2 of its lines)`);

  // A line no session wrote (the first, from the initial commit): the file's sessions answer.
  const first = await engram(root, ['why', 'src/dates.ts:1'], env);
  assert.match(first.out, /\n1 session \(they changed the file\):\n/);
  // No line: the file's sessions.
  assert.match(
    (await engram(root, ['why', 'src/dates.ts'], env)).out,
    /^src\/dates\.ts\n1 session \(they changed the file\)/,
  );
  const outside = await engram(root, ['why', '/etc/hosts'], env);
  assert.equal(outside.code, 1);
  assert.match(outside.err, /^engram: file: \/etc\/hosts is outside the workspace /);
});

test('engram context --prime: the block with the session, its open thread and decision, within the budget', async () => {
  const { root, env } = await linkedWorkspace();
  const primed = await engram(root, ['context', '--prime'], env);
  assert.equal(primed.code, 0, primed.err);
  assert.match(primed.out, /^## Engram: where this project stands \(branch fix\/leap\)/);
  assert.match(primed.out, /### Open threads\n- \[\S+\] `npm run build` failed \(exit 2\)/);
  assert.match(
    primed.out,
    /### Recent decisions\n- \[\S+\] \(decision, \S+\) Use the Gregorian rule, not the Julian one\./,
  );
  const tokens = /\((\d+) of 1500 tokens; 0 lines left out\)\n$/.exec(primed.out);
  assert.ok(tokens, primed.out);
  const small = await engram(root, ['context', '--prime', '--budget', '60'], env);
  assert.match(small.out, /\((\d+) of 60 tokens; [1-9]\d* lines left out\)\n$/);
  const none = await engram(root, ['context'], env);
  assert.equal(none.code, 1);
  assert.equal(none.err, 'engram: give a query, or --prime for the block a fresh session starts with\n');
});
