import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { writeSessionLessons } from '../../engine/capture/sessionLessons';
import type { ConsolidationCluster } from '../../engine/lifecycle/consolidation';
import { recurringLesson } from '../../engine/lifecycle/recurringLessons';
import { engram } from '../cli/engramCli';
import { FIXTURES, SHOP, copyFixture } from '../capture/captureDb';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { tempDir } from '../support/temp';

type Plan = { dryRun: boolean; clusters: ConsolidationCluster[]; created: string[]; confirmed: string[] };
type Row = { id: string; content: string; status: string; statusReason: string | null; session: string };

/** A Cline task (the fixture: a failing deploy command fixed, and a correction) run as session `id`. */
async function clineSession(t: TestHost, id: string): Promise<void> {
  const dir = path.join(tempDir(), 'tasks', id);
  await ingestSource(
    t.host.store,
    { agent: 'cline', path: copyFixture('cline-ui_messages.json', dir, 'ui_messages.json') },
    { root: SHOP },
  );
  await writeSessionLessons(t.host.store, [id]);
}

/** A Copilot chat (the fixture: `npm test` failed, `TZ=UTC npm test` worked) run as session `id`. */
async function copilotSession(t: TestHost, id: string): Promise<void> {
  const file = path.join(tempDir(), `${id}.jsonl`);
  const fixture = readFileSync(path.join(FIXTURES, 'copilot-session.jsonl'), 'utf8');
  writeFileSync(file, fixture.replaceAll('0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0', id));
  await ingestSource(t.host.store, { agent: 'copilot', path: file }, { root: SHOP });
  await writeSessionLessons(t.host.store, [id]);
}

function lessons(t: TestHost): Row[] {
  return t.host.store.read((r) =>
    r.all<Row>(
      `SELECT id, content, status, status_reason AS statusReason, session FROM memories
       WHERE superseded_at IS NULL AND tags LIKE '%"capture"%' ORDER BY content, id`,
    ),
  );
}

const memory = async (t: TestHost, id: string) =>
  (
    (await t.call('get', { id, readOnly: true })) as {
      memory: { layer: string; kind: string; content: string; context: string; confirmations: number };
    }
  ).memory;

/* Issue 21, section 3.6: lessons that recur across sessions become one procedural memory. */
describe('lifecycle: recurring lessons become procedural patterns', () => {
  it('the same failing command fixed the same way and the same correction, in two sessions, become one memory each', async () => {
    const t = await openTestHost();
    await clineSession(t, '1764330000000');
    await clineSession(t, '1764440000000');
    await copilotSession(t, '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0');
    // The second session's lessons restate the first's word for word: the write path confirmed them.
    assert.equal(lessons(t).length, 3);

    const plan = (await t.call('consolidate', {})) as Plan;
    const patterns = plan.clusters.filter((c) => c.reason === 'pattern');
    assert.deepEqual(
      patterns.map((c) => [c.pattern?.rule, c.pattern?.sessions, c.pattern?.kind]).sort(),
      [
        ['correction', ['1764330000000', '1764440000000'], 'error-pattern'],
        ['recovery', ['1764330000000', '1764440000000'], 'procedure'],
      ],
      JSON.stringify(plan.clusters),
    );
    const recovery = patterns.find((c) => c.pattern?.rule === 'recovery')!;
    assert.equal(
      recovery.pattern?.same,
      '`bash <path> --dry-run` failed (exit 2), then `DRY_RUN=1 bash <path>` worked',
    );
    assert.equal(lessons(t).filter((l) => l.status === 'active').length, 3, 'a dry run changes nothing');
    const text = await engram(path.dirname(t.dbPath), ['--db', t.dbPath, 'consolidate']);
    assert.match(
      text.out,
      /recurring correction: the correction "use a real --dry-run flag instead", in 2 sessions/,
    );

    const done = (await t.call('consolidate', { dryRun: false })) as Plan;
    assert.equal(done.created.length, 2, JSON.stringify(done));
    for (const id of done.created) {
      const made = await memory(t, id);
      assert.equal(made.layer, 'procedural');
      assert.match(
        made.context,
        /^Recurring (recovery|correction): .* in 2 sessions \(1764330000000, 1764440000000\)/,
      );
    }
    const corrected = await memory(
      t,
      done.created[patterns.findIndex((c) => c.pattern?.rule === 'correction')]!,
    );
    assert.deepEqual(
      [corrected.kind, corrected.content],
      [
        'error-pattern',
        'Correction given in 2 sessions: You used an env var. Use a real --dry-run flag instead.',
      ],
    );
    // The members: superseded by the pattern, with the reason in their history; the one-session lesson untouched.
    const after = lessons(t);
    assert.deepEqual(
      after.map((l) => l.status),
      ['superseded', 'superseded', 'active'],
    );
    assert.match(after[0]!.statusReason!, /^recurring (recovery|correction): consolidated into m/);
    const history = (await t.call('history', { id: after[0]!.id })) as {
      versions: Array<{ statusReason: string | null }>;
    };
    assert.match(history.versions.at(-1)!.statusReason!, /in 2 sessions/);
    const run = t.host.store.read((r): unknown =>
      JSON.parse(
        r.value<string>(
          "SELECT data FROM events WHERE type = 'consolidation-run' ORDER BY seq DESC LIMIT 1",
        )!,
      ),
    ) as { byReason: Record<string, number>; touched: number };
    assert.equal(run.byReason['pattern'], 2);

    // A third session teaches it again: the pattern is confirmed, no second memory.
    await clineSession(t, '1764550000000');
    const again = (await t.call('consolidate', { dryRun: false })) as Plan;
    assert.deepEqual(again.created, []);
    assert.deepEqual([...again.confirmed].sort(), [...done.created].sort());
    assert.equal((await memory(t, done.created[0]!)).confirmations, 2);
    await t.host.close();
  });

  it('is not novel when a procedural memory already says it: that memory is confirmed instead', async () => {
    const t = await openTestHost();
    const said = await t.call('remember', {
      content: 'Run the tests as TZ=UTC npm test: the date tests assume UTC.',
      layer: 'procedural',
      kind: 'procedure',
    });
    await copilotSession(t, 'a1000000-0000-4000-8000-000000000001');
    await copilotSession(t, 'a1000000-0000-4000-8000-000000000002');
    const plan = (await t.call('consolidate', {})) as Plan;
    const [pattern] = plan.clusters.filter((c) => c.reason === 'pattern');
    assert.equal(pattern?.pattern?.confirms, said.memory.id, JSON.stringify(plan.clusters));
    const done = (await t.call('consolidate', { dryRun: false })) as Plan;
    assert.deepEqual([done.created, done.confirmed], [[], [said.memory.id]]);
    assert.equal((await memory(t, said.memory.id)).confirmations, 3, 'its own and the two sessions');
    const [lesson] = lessons(t);
    assert.match(lesson!.statusReason!, new RegExp(`^recurring recovery: confirms ${said.memory.id}`));
    await t.host.close();
  });

  it('needs two sessions, and never gathers private lessons of different agents', async () => {
    const t = await openTestHost();
    const lesson = (agent: string, session: string, scope = 'private') =>
      t.call('remember', {
        content: 'Correction: Use pnpm instead of npm.',
        layer: 'procedural',
        kind: 'error-pattern',
        tags: ['capture', 'correction', agent],
        scope,
        dedupe: false,
        actor: { agent, session, trust: 'ingest' },
      });
    await lesson('claude-code', 's-1');
    await lesson('codex', 's-2');
    assert.deepEqual(((await t.call('consolidate', {})) as Plan).clusters, []);
    await lesson('codex', 's-3');
    const [cluster, ...rest] = ((await t.call('consolidate', {})) as Plan).clusters;
    assert.deepEqual([cluster?.pattern?.sessions, rest], [['s-2', 's-3'], []]);
    const done = (await t.call('consolidate', { dryRun: false })) as Plan;
    const made = t.host.store.read((r) =>
      r.get<{ scope: string; agent: string }>('SELECT scope, agent FROM memories WHERE id = ?', [
        done.created[0]!,
      ]),
    );
    assert.deepEqual(made, { scope: 'private', agent: 'codex' });
    await t.host.close();
  });

  it('reads "the same" by a rule: paths and numbers stand for any, the exit status and the fix must match', () => {
    const key = (content: string) => recurringLesson('recovery', content)?.key;
    const a = key('`npm test -- src/a.test.ts` failed (exit 1); `TZ=UTC npm test -- src/a.test.ts` worked.');
    assert.equal(a, key('`npm test -- b.test.ts` failed (exit 1); `TZ=UTC npm test -- b.test.ts` worked.'));
    assert.notEqual(
      a,
      key('`npm test -- b.test.ts` failed (exit 2); `TZ=UTC npm test -- b.test.ts` worked.'),
    );
    assert.notEqual(
      a,
      key('`npm test -- b.test.ts` failed (exit 1); `npm test -- b.test.ts --runInBand` worked.'),
    );
    const fix = (content: string) => recurringLesson('correction', content)?.key;
    assert.equal(fix('Correction: You used npm. Use pnpm, not npm.'), fix('Correction: Use pnpm not npm'));
    assert.equal(recurringLesson('recovery', 'Correction: Use pnpm.'), undefined);
  });
});
