import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { callTool, tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';
import type { InProcessBridge } from './inProcessBridge';

interface MemoryView {
  id: string;
  content: string;
  status: string;
  agent: string | null;
  pinned?: boolean;
}

let bridge: InProcessBridge;
before(async () => {
  bridge = await connectBridge(tempWorkspace(), { name: 'claude-code' });
});
after(() => bridge.close());

const call = <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) =>
  callTool<T>(bridge.client, name, args);

async function rejection(name: string, args: Record<string, unknown>): Promise<McpError> {
  try {
    await bridge.client.callTool({ name, arguments: args });
  } catch (error) {
    assert.ok(error instanceof McpError, String(error));
    return error;
  }
  assert.fail(`${name} accepted ${JSON.stringify(args)}`);
}

test('remember stores a memory as the client, and recall, get, list find it', async () => {
  const { outcome, memory } = await call<{ outcome: string; memory: MemoryView }>('memory_remember', {
    content: 'We chose sql.js so the engine runs in every VS Code host',
    kind: 'decision',
    tags: ['architecture'],
    importance: 0.8,
  });
  assert.equal(outcome, 'added');
  assert.equal(memory.agent, 'claude-code');
  const recalled = await call<{ hits: Array<{ memory: MemoryView }> }>('memory_recall', {
    query: 'why sql.js?',
    explain: true,
  });
  assert.equal(recalled.hits[0]?.memory.id, memory.id);
  const got = await call<{ memory: MemoryView }>('memory_get', { id: memory.id });
  assert.equal(got.memory.content, memory.content);
  const listed = await call<{ memories: MemoryView[] }>('memory_list', { tag: 'architecture' });
  assert.deepEqual(
    listed.memories.map((m) => m.id),
    [memory.id],
  );
});

test('a conflict key supersedes, edit makes a version, history shows every version', async () => {
  const first = await call<{ memory: MemoryView }>('memory_remember', {
    content: 'Tests run with jest',
    conflictKey: 'test-runner',
  });
  const second = await call<{ outcome: string; superseded: string[]; memory: MemoryView }>(
    'memory_remember',
    {
      content: 'Tests run with node --test',
      conflictKey: 'test-runner',
    },
  );
  assert.equal(second.outcome, 'superseded');
  assert.deepEqual(second.superseded, [first.memory.id]);
  const edited = await call<{ memory: MemoryView }>('memory_edit', {
    id: second.memory.id,
    content: 'Tests run with node --test and tsx',
  });
  assert.equal(edited.memory.content, 'Tests run with node --test and tsx');
  const changes = async (id: string) =>
    (await call<{ versions: Array<{ change: string }> }>('memory_history', { id })).versions.map(
      (v) => v.change,
    );
  assert.deepEqual(await changes(first.memory.id), ['created', 'superseded']);
  assert.deepEqual(await changes(second.memory.id), ['created', 'edited']);
});

test('annotate, pin, unpin, invalidate, forget and restore change the memory they name', async () => {
  const { memory } = await call<{ memory: MemoryView }>('memory_remember', {
    content: 'The API listens on port 8080',
  });
  const note = await call<{ memoryId: string }>('memory_annotate', {
    id: memory.id,
    text: 'seen in docker-compose.yml',
  });
  assert.equal(note.memoryId, memory.id);
  assert.equal((await call<{ memory: MemoryView }>('memory_pin', { id: memory.id })).memory.pinned, true);
  assert.equal((await call<{ memory: MemoryView }>('memory_unpin', { id: memory.id })).memory.pinned, false);
  const invalid = await call<{ memory: MemoryView }>('memory_invalidate', {
    id: memory.id,
    reason: 'moved to 9090',
  });
  assert.equal(invalid.memory.status, 'invalidated');
  assert.equal(
    (await call<{ memory: MemoryView }>('memory_forget', { id: memory.id })).memory.status,
    'forgotten',
  );
  assert.equal(
    (await call<{ memory: MemoryView }>('memory_restore', { id: memory.id })).memory.status,
    'invalidated',
  );
  const got = await call<{ annotations: Array<{ text: string }> }>('memory_get', { id: memory.id });
  assert.deepEqual(
    got.annotations.map((a) => a.text),
    ['seen in docker-compose.yml'],
  );
});

test('context, entities, related, timeline, export and stats answer within their schemas', async () => {
  await call('memory_remember', { content: 'src/auth/login.ts uses the jsonwebtoken package for sessions' });
  const block = await call<{ text: string; tokens: number; budget: number }>('memory_context', {
    query: 'auth login',
    budget: 300,
  });
  assert.match(block.text, /login\.ts/);
  assert.ok(block.tokens <= block.budget);
  const entities = await call<{ entities: Array<{ name: string }> }>('memory_entities', { query: 'login' });
  assert.ok(
    entities.entities.some((e) => e.name === 'src/auth/login.ts'),
    JSON.stringify(entities),
  );
  const related = await call<{ memories: MemoryView[] }>('memory_related', {
    entity: 'src/auth/login.ts',
    hops: 2,
  });
  assert.match(related.memories[0]?.content ?? '', /jsonwebtoken/);
  const timeline = await call<{ events: Array<{ type: string; agent: string | null }> }>('memory_timeline', {
    from: new Date(Date.now() - 60_000).toISOString(),
  });
  assert.ok(
    timeline.events.some((e) => e.type === 'remember' && e.agent === 'claude-code'),
    JSON.stringify(timeline),
  );
  assert.ok(
    timeline.events.some((e) => e.type === 'invalidate'),
    JSON.stringify(timeline),
  );
  const exported = await call<{ text: string; totalLines: number }>('memory_export', { format: 'jsonl' });
  assert.match(exported.text, /engram-export/);
  const stats = await call<{ memories: number; bridge: { role: string; profile: string } }>('memory_stats');
  assert.ok(stats.memories > 0, JSON.stringify(stats));
  assert.deepEqual(
    { role: stats.bridge.role, profile: stats.bridge.profile },
    { role: 'host', profile: 'full' },
  );
});

test('list pages within a small token budget and the cursors walk every memory exactly once', async () => {
  for (let i = 0; i < 25; i++) {
    await call('memory_remember', {
      content: `Paging memory number ${i}: ${'detail '.repeat(20)}`,
      tags: ['paging'],
    });
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call<{ memories: MemoryView[]; nextCursor: string | null }>('memory_list', {
      tag: 'paging',
      budget: 400,
      ...(cursor ? { cursor } : {}),
    });
    seen.push(...page.memories.map((m) => m.id));
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor);
  assert.ok(pages > 3, `a 400-token budget should need several pages, took ${pages}`);
  assert.equal(seen.length, 25);
  assert.equal(new Set(seen).size, 25);
});

test('invalid arguments are refused with a JSON-RPC error naming the field, and change nothing', async () => {
  const before = await call<{ memories: number }>('memory_stats');
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['memory_remember', { content: 42 }, /memory_remember: content:/],
    ['memory_remember', { content: 'x', importance: 7 }, /importance:/],
    ['memory_remember', { content: 'x', layer: 'nowhere' }, /layer:/],
    ['memory_remember', { content: 'x', tag: ['typo'] }, /tag/],
    ['memory_remember', { content: 'y'.repeat(40_000) }, /content:/],
    ['memory_recall', {}, /query:/],
    ['memory_list', { cursor: 'not-a-cursor' }, /cursor:/],
    ['memory_get', { id: 'nosuchid-at-all' }, /no memory/],
    ['memory_invalidate', { id: 'x', reason: 'r', validTo: 'yesterday-ish' }, /validTo/],
    ['no_such_tool', {}, /name: no tool named/],
  ];
  for (const [name, args, pattern] of cases) {
    const error = await rejection(name, args).catch((e: unknown) => e);
    if (name === 'memory_get') {
      // Not finding a memory is an answer, not bad input: a tool error result.
      continue;
    }
    assert.ok(error instanceof McpError, `${name} ${JSON.stringify(args).slice(0, 60)}`);
    assert.equal(error.code, -32602);
    assert.match(error.message, pattern);
    assert.doesNotMatch(error.message, /\n/);
  }
  const missing = await bridge.client.callTool({ name: 'memory_get', arguments: { id: 'nosuchid-at-all' } });
  assert.equal(missing.isError, true);
  assert.equal((await call<{ memories: number }>('memory_stats')).memories, before.memories);
});

test('resources: memory://recent lists the newest memories and memory://{id} reads one', async () => {
  const { resources } = await bridge.client.listResources();
  assert.ok(resources.some((r) => r.uri === 'memory://recent'));
  const { resourceTemplates } = await bridge.client.listResourceTemplates();
  assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'memory://{id}'));
  const { memory } = await call<{ memory: MemoryView }>('memory_remember', {
    content: 'Resources are JSON documents',
  });
  const recent = await bridge.client.readResource({ uri: 'memory://recent' });
  const recentText = recent.contents[0] && 'text' in recent.contents[0] ? recent.contents[0].text : '';
  assert.equal((JSON.parse(recentText) as { memories: MemoryView[] }).memories[0]?.id, memory.id);
  const one = await bridge.client.readResource({ uri: `memory://${memory.id}` });
  const oneText = one.contents[0] && 'text' in one.contents[0] ? one.contents[0].text : '';
  assert.equal(
    (JSON.parse(oneText) as { memory: MemoryView }).memory.content,
    'Resources are JSON documents',
  );
  await assert.rejects(bridge.client.readResource({ uri: 'memory://m_doesnotexist' }), /no memory/);
});

test('prompts prime, recap and why carry the memories they are about', async () => {
  const { prompts } = await bridge.client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), ['prime', 'recap', 'why']);
  await call('memory_remember', {
    content: 'Decided: the webview uses Lit components for the timeline',
    kind: 'decision',
  });
  const text = async (name: string, args: Record<string, string>) => {
    const result = await bridge.client.getPrompt({ name, arguments: args });
    const content = result.messages[0]?.content;
    return content && content.type === 'text' ? content.text : '';
  };
  assert.match(await text('prime', { task: 'timeline webview' }), /Lit components/);
  assert.match(await text('recap', { days: '1' }), /remember/);
  assert.match(await text('why', { target: 'webview timeline' }), /Lit components/);
  await assert.rejects(bridge.client.getPrompt({ name: 'why', arguments: {} }), /target/);
});

test('memory_recall with detail opens a consolidated memory onto its members', async () => {
  const longAgo = new Date(Date.now() - 200 * 24 * 60 * 60 * 1000).toISOString();
  const ids: string[] = [];
  for (const content of ['Ann booked the flight to Porto.', 'The Porto guesthouse costs 95 euros a night.'])
    ids.push(
      (
        await call<{ memory: MemoryView }>('memory_remember', {
          content,
          layer: 'episodic',
          validFrom: longAgo,
        })
      ).memory.id,
    );
  const done = await call<{ created: string[] }>('memory_consolidate', { dryRun: false });
  const gist = done.created[0] ?? '';
  const recall = async (detail: boolean) =>
    (
      await call<{ hits: Array<{ memory: MemoryView }> }>('memory_recall', {
        query: 'Porto guesthouse',
        detail,
      })
    ).hits.map((h) => h.memory.id);
  const plain = await recall(false);
  assert.ok(plain.includes(gist), JSON.stringify({ plain, done, ids }));
  const detailed = await recall(true);
  assert.ok(detailed.includes(ids[1]!) && !detailed.includes(gist), JSON.stringify({ detailed, ids, gist }));
});
