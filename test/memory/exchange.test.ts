import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';

async function seeded() {
  const t = await openTestHost();
  const a = await t.call('remember', {
    content: 'Use Vitest for unit tests in packages/web',
    tags: ['testing'],
    importance: 0.8,
  });
  t.clock.advance(1000);
  await t.call('edit', {
    id: a.memory.id,
    changes: { content: 'Use node:test for unit tests in packages/web' },
  });
  await t.call('annotate', { id: a.memory.id, text: 'decided in PR 42' });
  await t.call('pin', { id: a.memory.id });
  const b = await t.call('remember', {
    content: 'Caroline owns the billing service',
    kind: 'fact',
    layer: 'episodic',
  });
  await t.call('invalidate', { id: b.memory.id, reason: 'team change' });
  await t.call('remember', { content: 'Scratch note', layer: 'working', actor: { session: 's9' } });
  return t;
}

const body = (text: string) => text.split('\n').slice(1).join('\n');

describe('export and import', () => {
  it('round-trips every field and version through JSONL into an empty database', async () => {
    const source = await seeded();
    const exported = (await source.call('export', {})).text!;
    const target = await openTestHost();
    const result = await target.call('import', { text: exported });
    assert.ok('counts' in result);
    const again = (await target.call('export', {})).text!;
    assert.equal(body(again), body(exported));
    const { versions } = await target.call('history', {
      id: (JSON.parse(exported.split('\n')[1]!) as { id: string }).id,
    });
    assert.equal(versions.length, 2);
  });

  it('imports idempotently: a second import adds nothing', async () => {
    const source = await seeded();
    const exported = (await source.call('export', {})).text!;
    const target = await openTestHost();
    await target.call('import', { text: exported });
    await target.call('import', { text: exported });
    assert.equal(body((await target.call('export', {})).text!), body(exported));
  });

  it('rejects a malformed line, naming it, and imports nothing', async () => {
    const source = await seeded();
    const lines = (await source.call('export', {})).text!.split('\n');
    lines[3] = '{"type":"memories", "id": ';
    const target = await openTestHost();
    await assert.rejects(
      target.call('import', { text: lines.join('\n') }),
      /^EngramError: line 4 is not valid JSON$/m,
    );
    assert.equal((await target.call('stats')).versions, 0);
    const unknownField = (await source.call('export', {})).text!.replace('"layer":', '"lair":');
    await assert.rejects(target.call('import', { text: unknownField }), /memories has no field "lair"/);
    await assert.rejects(
      target.call('import', { text: '{"_table":"memories","id":"x"}' }),
      /not an Engram export/,
    );
  });

  it('writes an export file and reads it back by path', async () => {
    const source = await seeded();
    const file = path.join(tempDir(), 'out.jsonl');
    await source.call('export', { file });
    const target = await openTestHost();
    await target.call('import', { file });
    assert.equal((await target.call('stats')).memories, (await source.call('stats')).memories);
    await assert.rejects(
      target.call('import', { file: path.join(tempDir(), 'missing.jsonl') }),
      /cannot read .*ENOENT/,
    );
  });

  it('renders Markdown by layer with untrusted text quoted', async () => {
    const source = await seeded();
    await source.call('remember', { content: '# not a heading <script>alert(1)</script>' });
    const md = (await source.call('export', { format: 'md' })).text!;
    assert.match(md, /^# Engram memories/);
    assert.match(md, /## Semantic \(\d+\)/);
    assert.match(md, /> # not a heading/);
    assert.match(md, /### \\# not a heading \\<script\\>/);
  });

  it("imports the official MCP memory server's memory.jsonl", async () => {
    const dir = tempDir();
    const file = path.join(dir, 'memory.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({
          type: 'entity',
          name: 'John_Smith',
          entityType: 'person',
          observations: ['Speaks fluent Spanish', 'Graduated in 2019'],
        }),
        JSON.stringify({
          type: 'entity',
          name: 'Anthropic',
          entityType: 'organization',
          observations: ['Makes Claude'],
        }),
        JSON.stringify({ type: 'relation', from: 'John_Smith', to: 'Anthropic', relationType: 'works_at' }),
      ].join('\n'),
    );
    const t = await openTestHost();
    const result = await t.call('import', { file, from: 'mcp-memory' });
    assert.deepEqual(result, {
      from: 'mcp-memory',
      entities: 2,
      observations: 3,
      relations: 1,
      duplicates: 0,
      rejected: [],
    });
    const john = await t.call('related', { entity: 'John_Smith' });
    assert.deepEqual(john.memories.map((m) => m.memory.content).sort(), [
      'Graduated in 2019',
      'Speaks fluent Spanish',
    ]);
    assert.ok(john.related.some((e) => e.name === 'Anthropic'));
    assert.ok(readFileSync(file, 'utf8').length > 0);
  });

  it('imports the good observations of an MCP memory file and reports each one it could not write', async () => {
    const t = await openTestHost({ limits: { maxContentChars: 40 } });
    const text = [
      JSON.stringify({
        type: 'entity',
        name: 'Alice',
        entityType: 'person',
        observations: ['works at Acme Corp', '', 'likes tea'],
      }),
      JSON.stringify({
        type: 'entity',
        name: 'Bob',
        entityType: 'person',
        observations: ['rides a bike to the office every single morning', 'works at Acme Corp'],
      }),
    ].join('\n');
    const result = await t.call('import', { text, from: 'mcp-memory' });
    assert.deepEqual(result, {
      from: 'mcp-memory',
      entities: 2,
      observations: 2,
      relations: 0,
      duplicates: 1,
      rejected: [
        {
          entity: 'Alice',
          observation: 1,
          error: { code: 'INVALID_INPUT', message: 'content must not be empty' },
        },
        {
          entity: 'Bob',
          observation: 0,
          error: { code: 'TOO_LARGE', message: 'content is 47 characters; the limit is 40' },
        },
      ],
    });
    const alice = await t.call('related', { entity: 'Alice' });
    assert.deepEqual(alice.memories.map((m) => m.memory.content).sort(), ['likes tea', 'works at Acme Corp']);
  });

  it('rejects a malformed MCP memory line and writes nothing', async () => {
    const t = await openTestHost();
    const text = [
      JSON.stringify({ type: 'entity', name: 'A', entityType: 'x', observations: ['ok'] }),
      JSON.stringify({ type: 'entity', name: 'B', observations: 'nope' }),
    ].join('\n');
    await assert.rejects(
      t.call('import', { text, from: 'mcp-memory' }),
      /line 2: entity "B" needs an entityType/,
    );
    assert.equal((await t.call('stats')).memories, 0);
  });
});

describe('the compat knowledge graph in an Engram export', () => {
  it('comes back exactly (order, a repeated name, shared texts) and a second import adds nothing', async () => {
    const source = await openTestHost();
    await source.call('graphCreateEntities', {
      entities: [
        { name: 'Alice', entityType: 'person', observations: ['works at Acme Corp', 'likes tea'] },
        { name: 'Bob', entityType: 'person', observations: ['works at Acme Corp'] },
        { name: 'Acme Corp', entityType: 'company', observations: [] },
      ],
    });
    await source.call('graphAddObservations', {
      observations: [{ entityName: 'Alice', contents: ['rides a bike'] }],
    });
    await source.call('graphCreateRelations', {
      relations: [
        { from: 'Alice', to: 'Acme Corp', relationType: 'works_at' },
        { from: 'Bob', to: 'Nobody Yet', relationType: 'knows' },
      ],
    });
    const graph = await source.call('graphRead', {});
    const exported = (await source.call('export', {})).text!;
    assert.match(exported, /"_table":"kg_observations"/);

    const target = await openTestHost();
    await target.call('import', { text: exported });
    assert.deepEqual(await target.call('graphRead', {}), graph);
    await target.call('import', { text: exported });
    assert.deepEqual(await target.call('graphRead', {}), graph, 'importing twice adds nothing');
  });
});
