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
import { engramExportWith, mcpMemoryWith } from '../support/secretExport';
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
      await call('import', { from: 'engram', text: await engramExportWith(secrets) });
    },
  ],
  [
    'import: the official memory.jsonl',
    async (call, secrets) => {
      await call('import', { from: 'mcp-memory', text: mcpMemoryWith(secrets) });
    },
  ],
  [
    'compat create_entities',
    async (call, secrets) => {
      await call('graphCreateEntities', {
        entities: secrets.map((s) => ({
          name: s.text,
          // The type becomes the tag of its observations: a tag holds 64 characters.
          entityType: TAG_SECRETS.includes(s) ? s.text : 'credential',
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
