import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statedTodos } from '../../engine/capture/prime/openThreads';
import { primeBlock } from '../../engine/capture/prime/primeBlock';
import { summaryKey, writeSessionSummaries } from '../../engine/capture/sessionSummary';
import { writeStatedConventions } from '../../engine/capture/statedConventions';
import { tokenCount } from '../../engine/retrieval/tokenCount';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { claudeEditSession, ingestEditSession } from './editSession';

const ROOT = '/home/dev/shop';
const T0 = Date.parse('2026-03-02T09:00:00Z');
const HOUR = 3_600_000;

async function primedStore() {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const sessions: Array<[string, string, number, Parameters<typeof claudeEditSession>[4]]> = [
    [
      'sess-main-1',
      'main',
      T0,
      [
        { user: 'Make the importer stream rows. Always run the linter before committing.' },
        { bash: 'npm run lint', exit: 1 },
        { bash: 'npm test', exit: 1 },
        { bash: 'npm test', exit: 0 },
      ],
    ],
    [
      'sess-feat-1',
      'feat/csv',
      T0 + HOUR,
      [
        { user: 'Add CSV export. TODO: quote fields with commas. We decided to keep UTF-8 only.' },
        { edit: 'src/csv.ts', old: 'a', new: 'export const SEPARATOR = ",";' },
        { bash: 'npm run build', exit: 2 },
      ],
    ],
    [
      'sess-feat-2',
      'feat/csv',
      T0 + 2 * HOUR,
      [{ user: 'Fix the CSV header order.' }, { bash: 'npm run lint', exit: 0 }],
    ],
  ];
  for (const [id, branch, start, steps] of sessions)
    await ingestEditSession(store, dir, ROOT, id, claudeEditSession(id, ROOT, branch, start, steps));
  const ids = sessions.map((s) => s[0]);
  await writeSessionSummaries(store, ids);
  await writeStatedConventions(store, ids);
  const pinned = await t.call('remember', {
    content: 'Releases go out from the release branch only.',
    pinned: true,
  });
  const stale = await t.call('remember', {
    content: 'The importer reads the whole file into memory.',
    kind: 'fact',
  });
  store.write((tx, now) =>
    tx.run(
      "INSERT INTO drift_memories (memory_id, content_hash, extracted_at, status, checked_at) VALUES (?, 'h', ?, 'stale', ?)",
      [stale.memory.id, now, now],
    ),
  );
  const summaryOf = (id: string) =>
    store.read((r) =>
      r.value<string>("SELECT id FROM memories WHERE conflict_key = ? AND status = 'active'", [
        summaryKey(id),
      ]),
    ) as string;
  return { t, store, pinned: pinned.memory.id, stale: stale.memory.id, summaryOf };
}

test('the primed block: pinned, this branch’s sessions first, open threads, decisions, drift; each line cites a memory', async () => {
  const { t, store, pinned, stale, summaryOf } = await primedStore();
  const block = store.read((r) => primeBlock(r, { branch: 'feat/csv' }));
  const text = block.text;
  const section = (title: string) => {
    const start = text.indexOf(`### ${title}`);
    assert.ok(start >= 0, `${title} in\n${text}`);
    const end = text.indexOf('\n###', start + 1);
    return text
      .slice(start, end === -1 ? undefined : end)
      .split('\n')
      .slice(1);
  };
  assert.match(
    text,
    /^## Engram: where this project stands \(branch feat\/csv\); cite memories by id\n### Pinned/,
  );
  assert.deepEqual(section('Pinned and critical'), [
    `- [${pinned}] (fact) Releases go out from the release branch only.`,
  ]);
  const sessions = section('Last sessions');
  assert.deepEqual(
    sessions.map((l) => /^- \[(\S+)\]/.exec(l)?.[1]),
    [summaryOf('sess-feat-2'), summaryOf('sess-feat-1'), summaryOf('sess-main-1')],
    'this branch first, the most recent first, then the other branches',
  );
  // npm run lint failed in the first session but passed later; npm test failed then passed in it.
  assert.deepEqual(section('Open threads'), [
    `- [${summaryOf('sess-feat-1')}] \`npm run build\` failed (exit 2) and has not passed since (2026-03-02)`,
    `- [${summaryOf('sess-feat-1')}] TODO: quote fields with commas. (2026-03-02)`,
  ]);
  const decisions = section('Recent decisions');
  assert.ok(decisions.some((l) => l.includes('(decision, ') && l.endsWith('We decided to keep UTF-8 only.')));
  assert.ok(decisions.some((l) => l.endsWith('Always run the linter before committing.')));
  assert.deepEqual(section('Drift warnings (check before relying on these)'), [
    `- [${stale}] (stale) The importer reads the whole file into memory.`,
  ]);
  assert.equal(block.tokens, tokenCount(text));
  assert.ok(block.included.some((i) => i.id === pinned && i.section === 'pinned'));
  assert.equal(block.omitted, 0);
  await t.host.close();
});

test('the primed block keeps to its budget, measured with the real tokenizer', async () => {
  const { t, store } = await primedStore();
  const full = store.read((r) => primeBlock(r, { branch: 'feat/csv' }));
  for (const budget of [60, 120, 200]) {
    const block = store.read((r) => primeBlock(r, { branch: 'feat/csv', budget }));
    assert.ok(block.tokens <= budget, `${block.tokens} <= ${budget}`);
    assert.equal(block.tokens, tokenCount(block.text));
    assert.ok(block.omitted > 0, 'lines were left out');
    assert.ok(full.text.length > block.text.length);
  }
  await t.host.close();
});

test('stated TODOs: at the start of a sentence only', () => {
  assert.deepEqual(statedTodos('Ship it. TODO: add retries. We still need to document the flag.'), [
    'TODO: add retries.',
    'We still need to document the flag.',
  ]);
  assert.deepEqual(statedTodos('The TODO list is long and this is not one.'), []);
});
