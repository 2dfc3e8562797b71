import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/temp';
import { engram } from './engramCli';

/** An export of a one-memory, one-annotation database, as JSON objects to tamper with. */
async function exported(dir: string): Promise<Array<Record<string, unknown>>> {
  const db = ['--db', path.join(dir, 'source.db')];
  const id = (
    JSON.parse((await engram(dir, [...db, '--json', 'remember', 'Releases are cut on Tuesdays'])).out) as {
      memory: { id: string };
    }
  ).memory.id;
  assert.equal((await engram(dir, [...db, 'annotate', id, 'confirmed by Melanie'])).code, 0);
  assert.equal((await engram(dir, [...db, 'export', 'out.jsonl'])).code, 0);
  return readFileSync(path.join(dir, 'out.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function importRejected(
  dir: string,
  lines: Array<Record<string, unknown>>,
  message: RegExp,
): Promise<void> {
  const target = ['--db', path.join(dir, 'target.db')];
  writeFileSync(path.join(dir, 'tampered.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const result = await engram(dir, [...target, 'import', 'tampered.jsonl']);
  assert.equal(result.code, 1, result.err);
  assert.match(result.err, /^engram: [^\n]+\n$/, 'one line');
  assert.match(result.err, message);
  assert.match((await engram(dir, [...target, 'list'])).out, /^0 of 0/, 'nothing imported');
}

describe('import enforces the limits remember, edit and annotate enforce', () => {
  it('refuses a memory whose content is over the content limit, naming the line, and imports nothing', async () => {
    const dir = tempDir();
    const lines = await exported(dir);
    const memory = lines.find((l) => l['_table'] === 'memories')!;
    memory['content'] = 'x'.repeat(40_000);
    await importRejected(dir, lines, /line \d+: content is 40000 characters; the limit is 32768/);
  });

  it('refuses an annotation over the annotation limit', async () => {
    const dir = tempDir();
    const lines = await exported(dir);
    lines.find((l) => l['_table'] === 'annotations')!['text'] = 'y'.repeat(20_000);
    await importRejected(dir, lines, /line \d+: annotation is 20000 characters; the limit is 10000/);
  });

  it('refuses a source context over the context limit', async () => {
    const dir = tempDir();
    const lines = await exported(dir);
    lines.find((l) => l['_table'] === 'memories')!['context'] = 'z'.repeat(300_000);
    await importRejected(dir, lines, /line \d+: context is 300000 characters; the limit is 262144/);
  });

  it('edit and annotate refuse the same sizes through the CLI', async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'x.db')];
    const id = (
      JSON.parse((await engram(dir, [...db, '--json', 'remember', 'Small memory'])).out) as {
        memory: { id: string };
      }
    ).memory.id;
    const edit = await engram(dir, [...db, 'edit', id, 'x'.repeat(40_000)]);
    assert.equal(edit.code, 1);
    assert.match(edit.err, /^engram: content is 40000 characters; the limit is 32768\n$/);
    const note = await engram(dir, [...db, 'annotate', id, 'y'.repeat(20_000)]);
    assert.equal(note.code, 1);
    assert.match(note.err, /^engram: annotation is 20000 characters; the limit is 10000\n$/);
  });
});
