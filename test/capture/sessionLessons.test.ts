import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { commandRecoveries, commandTarget } from '../../engine/capture/commandRecoveries';
import type { RanCommand } from '../../engine/capture/commandRecoveries';
import { ingestSource } from '../../engine/capture/ingest';
import { writeSessionLessons } from '../../engine/capture/sessionLessons';
import { agentCorrection, negativeKnowledge } from '../../engine/capture/userLessons';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SHOP, copyFixture } from './captureDb';

test('a correction rejects what the agent did and says what to do instead', () => {
  const cases: Array<[string, { fix: string; context?: string }]> = [
    [
      'No, you used an env var. Use a real --dry-run flag instead.',
      { fix: 'Use a real --dry-run flag instead.', context: 'You used an env var' },
    ],
    ['No, use pnpm here.', { fix: 'Use pnpm here.' }],
    [
      "That's wrong: the dates must be built in UTC. Use Date.UTC.",
      { fix: 'Use Date.UTC.', context: 'The dates must be built in UTC' },
    ],
    [
      'Nope - it should return null when the user is missing',
      { fix: 'It should return null when the user is missing' },
    ],
    [
      "That's not what I asked for. Keep the old endpoint and add a new one.",
      { fix: 'Keep the old endpoint and add a new one.' },
    ],
    [
      "You're wrong, the config lives in settings.toml; read it from there instead.",
      { fix: 'Read it from there instead.', context: 'The config lives in settings.toml' },
    ],
  ];
  for (const [turn, expected] of cases) assert.deepEqual(agentCorrection(turn), expected, turn);
});

test('ordinary replies are not corrections', () => {
  const chatter = [
    'No problem, use whatever you like.',
    'No, thanks. That is all for today.',
    'No.',
    'No, why did you do that?',
    'No tests were run on CI, use the logs.',
    'Nope.',
    'Use pnpm instead of npm.', // a convention (statedConventions.ts), not a correction
    'That is right. Use it everywhere.',
    "It's wrong to assume the cache is warm? Check it.",
    'Wrong file, I think. Which one did you open?',
    'Looks good, now run the tests.',
  ];
  for (const turn of chatter) assert.equal(agentCorrection(turn), undefined, turn);
});

test('negative knowledge: statements of absence, not idioms, questions or conditions', () => {
  const cases: Array<[string, string[]]> = [
    [
      'There is no staging environment; deploy straight to prod with the flag.',
      ['There is no staging environment;'],
    ],
    ["We don't use Redux anymore. The store is in src/state.", ["We don't use Redux anymore."]],
    ['The v1 API was removed in March.', ['The v1 API was removed in March.']],
    [
      'config.yml no longer exists, the settings are in package.json.',
      ['config.yml no longer exists, the settings are in package.json.'],
    ],
    ['This project has no database migrations.', ['This project has no database migrations.']],
    ["There's no README in packages/core.", ["There's no README in packages/core."]],
  ];
  for (const [turn, expected] of cases) assert.deepEqual(negativeKnowledge(turn), expected, turn);
  const chatter = [
    'There is no need to run the tests again.',
    "There's no way this works on Windows.",
    'There is no rush.',
    'Is there no config file?',
    'If the cache was removed, rebuild it.',
    'Maybe the old router is gone.',
    'No tests failed.',
    'I removed the debug prints.',
    'We use Redux for the store.',
    'The button was moved to the toolbar.',
    'on glob that is gone now.', // the tail of a wrapped line
    'It was removed by mistake, restore it.',
  ];
  for (const turn of chatter) assert.deepEqual(negativeKnowledge(turn), [], turn);
});

const ran = (command: string, exitCode: number | null, status: RanCommand['status'] = null): RanCommand => ({
  command,
  exitCode,
  status,
});

test('a failing command followed by a different one of the same target that worked', () => {
  assert.equal(commandTarget('TZ=UTC npm test -- --watch=false'), 'npm test');
  assert.equal(commandTarget('sudo docker compose up'), 'docker compose');
  assert.equal(commandTarget('pytest -k dates'), 'pytest');
  assert.deepEqual(commandRecoveries([ran('npm test', 1), ran('git status', 0), ran('TZ=UTC npm test', 0)]), [
    { failed: 'npm test', exitCode: 1, worked: 'TZ=UTC npm test' },
  ]);
  assert.deepEqual(
    commandRecoveries([
      ran('bash scripts/deploy.sh --dry-run', 2),
      ran('DRY_RUN=1 bash scripts/deploy.sh', null, 'ok'),
    ]),
    [{ failed: 'bash scripts/deploy.sh --dry-run', exitCode: 2, worked: 'DRY_RUN=1 bash scripts/deploy.sh' }],
  );
  // Not recoveries: the same command passing later (the code was fixed), another target,
  // grep finding nothing, a pipeline, or a success too far away.
  assert.deepEqual(commandRecoveries([ran('npm test -- dates', 1), ran('npm test -- dates', 0)]), []);
  assert.deepEqual(commandRecoveries([ran('npm test', 1), ran('npm install', 0)]), []);
  assert.deepEqual(commandRecoveries([ran('grep -r TODO src', 1), ran('grep -ri todo src', 0)]), []);
  assert.deepEqual(commandRecoveries([ran('npm test | tail', 1), ran('npm test', 0)]), []);
  assert.deepEqual(
    commandRecoveries([
      ran('make build', 2),
      ...Array.from({ length: 6 }, () => ran('ls', 0)),
      ran('make build -j1', 0),
    ]),
    [],
  );
  assert.deepEqual(
    commandRecoveries([ran('npm test', 1), ran('npm test', 1), ran('npm test --runInBand', 0)]),
    [{ failed: 'npm test', exitCode: 1, worked: 'npm test --runInBand' }],
  );
});

test('ingested sessions give their lessons once, through the write policy, with the session as provenance', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = path.join(tempDir(), 'tasks', '1764330000000');
  await ingestSource(
    store,
    { agent: 'cline', path: copyFixture('cline-ui_messages.json', dir, 'ui_messages.json') },
    { root: SHOP },
  );
  const copilot = copyFixture(
    'copilot-session.jsonl',
    tempDir(),
    '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0.jsonl',
  );
  await ingestSource(store, { agent: 'copilot', path: copilot }, { root: SHOP });
  const sessions = ['1764330000000', '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0'];
  assert.equal(await writeSessionLessons(store, sessions), 3);
  assert.equal(await writeSessionLessons(store, sessions), 0, 'a second run confirms nothing twice');
  const rows = store.read((r) =>
    r.all<{ content: string; kind: string; layer: string; trust: string; session: string }>(
      "SELECT content, kind, layer, trust, session FROM memories WHERE tags LIKE '%capture%' ORDER BY content",
    ),
  );
  assert.deepEqual(rows, [
    {
      content: 'Correction: You used an env var. Use a real --dry-run flag instead.',
      kind: 'error-pattern',
      layer: 'procedural',
      trust: 'ingest',
      session: '1764330000000',
    },
    {
      content:
        '`bash scripts/deploy.sh --dry-run` failed (exit 2); `DRY_RUN=1 bash scripts/deploy.sh` worked.',
      kind: 'procedure',
      layer: 'procedural',
      trust: 'ingest',
      session: '1764330000000',
    },
    {
      content: '`npm test` failed (exit 1); `TZ=UTC npm test` worked.',
      kind: 'procedure',
      layer: 'procedural',
      trust: 'ingest',
      session: '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0',
    },
  ]);
});
