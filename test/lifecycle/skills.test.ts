import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DEFAULT_SKILL_THRESHOLD } from '../../engine/retrieval/skillGate';
import { engram } from '../cli/engramCli';
import { callTool, tempWorkspace } from '../mcp/bridgeProcess';
import { connectBridge } from '../mcp/inProcessBridge';
import type { InProcessBridge } from '../mcp/inProcessBridge';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';

const PROCEDURES = [
  {
    content: 'To release: bump with npm version, push the tag, and the release workflow publishes to npm',
    layer: 'procedural',
    kind: 'procedure',
  },
  {
    content: 'When the e2e tests hang, kill the stale headless Chromium and run them again',
    layer: 'procedural',
    kind: 'error-pattern',
  },
  {
    content: 'Database migrations go in db/migrations; run npm run migrate and never edit a shipped one',
    kind: 'procedure',
  },
];
const FACTS = ['The company logo is teal and orange', 'The API uses Postgres 15 for the billing tables'];

async function projectHost() {
  const t = await openTestHost();
  const ids: string[] = [];
  for (const p of PROCEDURES) ids.push((await t.call('remember', p)).memory.id);
  for (const content of FACTS) await t.call('remember', { content });
  return { t, ids };
}

const open: InProcessBridge[] = [];
after(async () => {
  for (const bridge of open) await bridge.close();
});

describe('skills: procedures for a task, only when relevant enough', () => {
  it('says there is no need when memory holds no procedure, or none shares a word with the task', async () => {
    const empty = await openTestHost();
    await empty.call('remember', { content: 'The company logo is teal' });
    const none = await empty.call('skills', { query: 'how do I release?' });
    assert.deepEqual(
      [none.decision, none.stage, none.reason],
      ['skip', 'need', 'no procedural memories yet'],
    );
    const { t } = await projectHost();
    const logo = await t.call('skills', { query: 'what colour is the company logo?' });
    assert.deepEqual([logo.decision, logo.stage], ['skip', 'need']);
    assert.equal(logo.reason, 'none of the 3 procedures shares a word with the task');
  });

  it('gives the procedure a task needs, with its confidence, and not the others', async () => {
    const { t, ids } = await projectHost();
    const release = await t.call('skills', { query: 'how do I release a new version to npm?' });
    assert.equal(release.decision, 'inject');
    assert.deepEqual(
      release.skills.map((s) => s.memory.id),
      [ids[0]],
    );
    assert.ok(release.skills[0]!.confidence >= DEFAULT_SKILL_THRESHOLD);
    const migration = await t.call('skills', { query: 'add a database migration' });
    assert.deepEqual(
      migration.skills.map((s) => s.memory.id),
      [ids[2]],
    );
  });

  it('filters a borderline match at calibration, and says why; a lower threshold lets it through', async () => {
    const { t, ids } = await projectHost();
    // Shares only "run" and "tests" with the e2e gotcha: most of the task is not covered.
    const task = 'run the unit tests for the parser with coverage reports';
    const borderline = await t.call('skills', { query: task });
    assert.deepEqual([borderline.decision, borderline.stage], ['skip', 'calibration']);
    assert.match(
      borderline.reason,
      /^the best procedure's confidence 0\.\d\d \(covers \d+% of the task, leads the next by \d+%\) is below the threshold 0\.45$/,
    );
    assert.ok(borderline.considered.length > 0);
    const lenient = await t.call('skills', { query: task, threshold: 0.05 });
    assert.equal(lenient.decision, 'inject');
    assert.ok(lenient.skills.some((s) => s.memory.id === ids[1]));
  });

  it('names the most confident procedure in its reason, not merely the first one', async () => {
    const t = await openTestHost();
    for (const content of ['Run the smoke tests before a deploy', 'Run the smoke tests after a deploy too'])
      await t.call('remember', { content, layer: 'procedural', kind: 'procedure' });
    const answer = await t.call('skills', { query: 'run the flaky parser tests with coverage on windows' });
    assert.equal(answer.stage, 'calibration');
    const best = answer.considered.reduce((a, b) => (b.confidence > a.confidence ? b : a));
    assert.notEqual(best.memoryId, answer.considered[0]!.memoryId, 'the second leads: the case under test');
    assert.match(
      answer.reason,
      new RegExp(`^the best procedure's confidence ${best.confidence.toFixed(2)} `),
    );
  });

  it('engram skills prints the skills or the reason; MCP memory_skills answers the same', async () => {
    const dir = tempDir();
    for (const p of PROCEDURES)
      await engram(dir, ['remember', '--layer', p.layer ?? 'semantic', '--kind', p.kind, p.content]);
    const given = await engram(dir, ['skills', 'how do I release a new version to npm?']);
    assert.equal(given.code, 0, given.err);
    assert.match(
      given.out,
      /^1 skill \(1 procedure with confidence at least 0\.45\):\n\d\.\d\d {2}m_\w+ {2}procedural\/procedure {2}To release/,
    );
    const none = await engram(dir, ['skills', 'what colour is the logo?']);
    assert.match(none.out, /^no skills: none of the 3 procedures shares a word with the task \(need\)/);

    const bridge = await connectBridge(tempWorkspace());
    open.push(bridge);
    for (const p of PROCEDURES) await callTool(bridge.client, 'memory_remember', p);
    const answer = await callTool<{ decision: string; skills: Array<{ memory: { content: string } }> }>(
      bridge.client,
      'memory_skills',
      { query: 'how do I release a new version to npm?' },
    );
    assert.equal(answer.decision, 'inject');
    assert.match(answer.skills[0]?.memory.content ?? '', /^To release/);
    const skip = await callTool<{ decision: string; stage: string }>(bridge.client, 'memory_skills', {
      query: 'what colour is the logo?',
    });
    assert.deepEqual([skip.decision, skip.stage], ['skip', 'need']);
  });
});
