import path from 'node:path';
import { describe, test } from 'node:test';
import {
  assertNoSecrets,
  assertRedacted,
  FAKE_SECRETS,
  filesUnder,
  TAG_SECRETS,
} from '../support/fakeSecrets';
import type { FakeSecret } from '../support/fakeSecrets';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { tempDir } from '../support/temp';

/**
 * The README's write policy, "secrets are redacted before storing", on every write the engine
 * serves: each surface writes one fake secret of every kind, then the secret must be nowhere, in
 * no read result, in neither export, in no file of the store (journal and snapshot included).
 */
type Call = TestHost['call'];
/** Writes the secrets through one surface; returns those it could write (a tag holds 64 characters). */
type Surface = (call: Call, secrets: readonly FakeSecret[]) => Promise<readonly FakeSecret[] | void>;

/** Placeholders an Engram export is written with, then swapped for the secrets (see engramExport). */
const placeholder = (i: number) => `zqxplace${i}zqx`;

async function rememberPlain(call: Call, content: string): Promise<string> {
  return (await call('remember', { content })).memory.id;
}

const SURFACES: Array<[name: string, write: Surface]> = [
  [
    'remember: content and context',
    async (call, secrets) => {
      for (const [i, s] of secrets.entries())
        await call('remember', { content: `note ${i} uses ${s.text}`, context: `pasted ${s.text}` });
    },
  ],
  [
    'remember: tags (lower-cased when stored)',
    async (call) => {
      for (const [i, s] of TAG_SECRETS.entries())
        await call('remember', { content: `tagged note ${i}`, tags: ['ops', s.text] });
      return TAG_SECRETS;
    },
  ],
  [
    'remember: conflict key',
    async (call, secrets) => {
      for (const [i, s] of secrets.entries())
        await call('remember', { content: `keyed note ${i}`, conflictKey: s.text });
    },
  ],
  [
    'rememberMany: content, tags and conflict keys',
    async (call, secrets) => {
      await call('rememberMany', {
        memories: secrets.map((s, i) => ({
          content: `batch note ${i} uses ${s.text}`,
          tags: s.text.length <= 64 ? [s.text] : [],
          conflictKey: s.text,
        })),
      });
    },
  ],
  [
    'edit: content, context, tags and conflict key',
    async (call, secrets) => {
      for (const [i, s] of secrets.entries()) {
        const id = await rememberPlain(call, `edited note ${i}`);
        await call('edit', {
          id,
          changes: {
            content: `edited note ${i} now uses ${s.text}`,
            context: s.text,
            tags: s.text.length <= 64 ? [s.text] : ['long'],
            conflictKey: s.text,
          },
        });
      }
    },
  ],
  [
    'annotate',
    async (call, secrets) => {
      for (const [i, s] of secrets.entries()) {
        const id = await rememberPlain(call, `annotated note ${i}`);
        await call('annotate', { id, text: `found ${s.text}` });
      }
    },
  ],
  [
    'invalidate: reason',
    async (call, secrets) => {
      for (const [i, s] of secrets.entries()) {
        const id = await rememberPlain(call, `invalidated note ${i}`);
        await call('invalidate', { id, reason: `rotated ${s.text}` });
      }
    },
  ],
  [
    'recall: the query kept in the event ledger',
    async (call, secrets) => {
      await rememberPlain(call, 'a note to find');
      for (const s of secrets) await call('recall', { query: `which note uses ${s.text}` });
      await rememberPlain(call, 'a write flushes the buffered recall events');
    },
  ],
  [
    'import: an Engram export holding secrets in every field',
    async (call, secrets) => {
      const text = await engramExport(secrets.length);
      await call('import', { from: 'engram', text: withSecrets(text, secrets) });
    },
  ],
  [
    'import: the official memory.jsonl',
    async (call, secrets) => {
      const lines = secrets.flatMap((s, i) => [
        JSON.stringify({
          type: 'entity',
          name: s.text,
          entityType: 'credential',
          observations: [`uses ${s.text}`],
        }),
        JSON.stringify({ type: 'entity', name: `Service ${i}`, entityType: s.text, observations: [] }),
        JSON.stringify({ type: 'relation', from: s.text, to: `Other ${s.text}`, relationType: s.text }),
      ]);
      await call('import', { from: 'mcp-memory', text: lines.join('\n') });
    },
  ],
  [
    'compat create_entities',
    async (call, secrets) => {
      await call('graphCreateEntities', {
        entities: secrets.map((s) => ({
          name: s.text,
          entityType: s.text,
          observations: [`holds ${s.text}`],
        })),
      });
    },
  ],
  [
    'compat add_observations (its result is kept for retries)',
    async (call, secrets) => {
      await call('graphCreateEntities', {
        entities: [{ name: 'Billing', entityType: 'service', observations: [] }],
      });
      await call('graphAddObservations', {
        observations: [{ entityName: 'Billing', contents: secrets.map((s) => `billing uses ${s.text}`) }],
      });
    },
  ],
  [
    'compat create_relations',
    async (call, secrets) => {
      await call('graphCreateRelations', {
        relations: secrets.map((s) => ({
          from: s.text,
          to: 'Billing',
          relationType: `signs with ${s.text}`,
        })),
      });
    },
  ],
];

/**
 * An Engram export of a database that used placeholder i wherever a secret could be: content,
 * context, tags, conflict key, annotation, invalidation reason (versions and events), entity names.
 */
async function engramExport(count: number): Promise<string> {
  const scratch = await openTestHost();
  try {
    for (let i = 0; i < count; i++) {
      const p = placeholder(i);
      const { memory } = await scratch.call('remember', {
        content: `note ${p} here`,
        context: `context ${p}`,
        tags: [p],
        conflictKey: `key ${p}`,
      });
      await scratch.call('annotate', { id: memory.id, text: `annotation ${p}` });
      await scratch.call('invalidate', { id: memory.id, reason: `reason ${p}` });
      await scratch.call('graphCreateEntities', { entities: [{ name: p, entityType: p, observations: [] }] });
    }
    return (await scratch.call('export', { format: 'jsonl' })).text!;
  } finally {
    await scratch.host.close();
  }
}

/** The export as another tool (or an older Engram) would have written it with the secrets in clear. */
function withSecrets(exported: string, secrets: readonly FakeSecret[]): string {
  let text = exported;
  // Descending, so that placeholder 1 does not match inside placeholder 10.
  for (let i = secrets.length - 1; i >= 0; i--) {
    const secret = secrets[i]!.text;
    const escaped = (value: string) => JSON.stringify(value).slice(1, -1);
    // Keys and aliases are lower-cased names.
    text = text
      .replaceAll(`"key":"${placeholder(i)}"`, `"key":"${escaped(secret.toLowerCase())}"`)
      .replaceAll(placeholder(i), escaped(secret));
  }
  return text;
}

/** What every read shows, as JSON text: lists, versions, recall, entities, exports, events, graph. */
async function readEverything(call: Call): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  const add = (where: string, value: unknown) => out.push([where, JSON.stringify(value)]);
  const list = await call('list', { status: 'all', limit: 500 });
  add('list', list);
  for (const memory of list.items) {
    add(`get ${memory.id}`, await call('get', { id: memory.id }));
    add(`history ${memory.id}`, await call('history', { id: memory.id }));
  }
  add('recall', await call('recall', { query: 'note uses key token password', includeInactive: true }));
  add('entities', await call('entities', { limit: 500 }));
  add('export jsonl', await call('export', { format: 'jsonl' }));
  add('export md', await call('export', { format: 'md' }));
  add('events', await call('events', { types: [], limit: 500 }));
  add('graph', await call('graphRead', { limit: 500 }));
  return out;
}

describe('secrets are redacted on every write (engine)', () => {
  for (const [name, write] of SURFACES) {
    test(name, async () => {
      const dir = tempDir();
      const t = await openTestHost({ dbPath: path.join(dir, 'memory.db') });
      const call = t.call.bind(t);
      try {
        const written = (await write(call, FAKE_SECRETS)) ?? FAKE_SECRETS;
        const journaled = filesUnder(dir);
        const shown = await readEverything(call);
        await t.host.store.db.snapshot();
        assertNoSecrets([...shown, ...journaled, ...filesUnder(dir)]);
        assertRedacted(shown, written);
      } finally {
        await t.host.close();
      }
    });
  }
});
