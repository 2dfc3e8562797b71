import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { tokenCount } from '../../engine/retrieval/tokenCount';
import { callTool, tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';
import type { InProcessBridge } from './inProcessBridge';

interface DriftMemory {
  id: string;
  status: string;
  validTo: string | null;
  claims: Array<{
    subject: string;
    verdict: string;
    evidence: { reason: string; commit?: { message: string } };
  }>;
}

let workspace: string;
let bridge: InProcessBridge;

function git(...args: string[]): string {
  const run = spawnSync('git', args, {
    cwd: workspace,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout.trim();
}

function write(file: string, content: string): void {
  mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
  writeFileSync(path.join(workspace, file), content);
}

before(async () => {
  workspace = tempWorkspace();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  git('config', 'commit.gpgsign', 'false');
  write(
    'src/math.ts',
    [
      "import { parseLegacy } from './legacy';",
      '',
      '/** Adds two numbers. */',
      'export function add(a: number, b: number): number {',
      '  return a + b;',
      '}',
      '',
      'export class Calculator {',
      '  total = 0;',
      '  plus(value: string): number {',
      '    this.total = add(this.total, parseLegacy(value));',
      '    return this.total;',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  write(
    'src/legacy.ts',
    [
      '/** Reads numbers written the old way. */',
      'export function parseLegacy(text: string): number {',
      '  return Number(text.trim());',
      '}',
      '',
    ].join('\n'),
  );
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  bridge = await connectBridge(workspace, { name: 'code-agent' });
});
after(() => bridge.close());

const call = <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) =>
  callTool<T>(bridge.client, name, args);

test('the code and drift tools are listed with honest hints', async () => {
  const tools = new Map((await bridge.client.listTools()).tools.map((t) => [t.name, t]));
  for (const name of ['code_symbols', 'code_files', 'code_locate', 'code_map']) {
    assert.equal(tools.get(name)?.annotations?.readOnlyHint, true, name);
  }
  const scan = tools.get('code_scan')?.annotations;
  assert.deepEqual([scan?.readOnlyHint, scan?.idempotentHint], [false, true]);
  const check = tools.get('drift_check')?.annotations;
  assert.deepEqual([check?.readOnlyHint, check?.idempotentHint], [false, true]);
  const fix = tools.get('drift_fix');
  assert.equal(fix?.annotations?.destructiveHint, true);
  assert.match(fix?.description ?? '', /dryRun \(the DEFAULT\)/);
});

test('code_scan indexes the workspace; a repeat finds nothing changed', async () => {
  const first = await call<{
    files: number;
    symbols: number;
    counts: { added: number; unchanged: number };
    changes: { added: string[] };
  }>('code_scan');
  assert.equal(first.files, 2);
  assert.ok(first.symbols >= 4, `symbols: ${first.symbols}`);
  assert.deepEqual([...first.changes.added].sort(), ['src/legacy.ts', 'src/math.ts']);
  const again = await call<{ counts: { added: number; changed: number; unchanged: number } }>('code_scan');
  assert.deepEqual([again.counts.added, again.counts.changed, again.counts.unchanged], [0, 0, 2]);
});

test('code_symbols and code_files search the index and page with a cursor', async () => {
  const add = await call<{
    symbols: Array<{ name: string; path: string; startLine: number; exported: boolean }>;
  }>('code_symbols', { query: 'add' });
  assert.deepEqual(
    add.symbols.map((s) => [s.name, s.path, s.startLine, s.exported]),
    [['add', 'src/math.ts', 4, true]],
  );
  const first = await call<{ symbols: Array<{ name: string }>; nextCursor: string | null }>('code_symbols', {
    query: 'a',
    limit: 1,
  });
  assert.equal(first.symbols.length, 1);
  assert.ok(first.nextCursor);
  const second = await call<{ symbols: Array<{ name: string }> }>('code_symbols', {
    query: 'a',
    limit: 1,
    cursor: first.nextCursor,
  });
  assert.equal(second.symbols.length, 1);
  assert.notEqual(second.symbols[0]?.name, first.symbols[0]?.name);

  const files = await call<{
    files: Array<{ path: string; language: string | null }>;
    nextCursor: string | null;
  }>('code_files', { query: 'src/' });
  assert.deepEqual(files.files.map((f) => f.path).sort(), ['src/legacy.ts', 'src/math.ts']);
  assert.equal(files.files[0]?.language, 'typescript');
  assert.equal(files.nextCursor, null);
});

test('code_map ranks the files within the budget', async () => {
  const result = await bridge.client.callTool({
    name: 'code_map',
    arguments: { budget: 300, focus: ['src/math.ts'] },
  });
  const map = result.structuredContent as {
    text: string;
    files: Array<{ path: string }>;
    indexedFiles: number;
  };
  assert.equal(map.indexedFiles, 2);
  assert.match(map.text, /src\/math\.ts/);
  assert.ok(map.files.some((f) => f.path === 'src/legacy.ts'));
  assert.ok(tokenCount(JSON.stringify(map)) <= 300, `${tokenCount(JSON.stringify(map))} tokens`);
  const [content] = result.content as Array<{ type: string; text: string }>;
  assert.match(content?.text ?? '', /add/);
});

test('code_locate ranks the files for an issue, with what matched and the symbol to open', async () => {
  const result = await bridge.client.callTool({
    name: 'code_locate',
    arguments: { query: 'Calculator.plus reads numbers written the old way wrongly: parseLegacy trims' },
  });
  const located = result.structuredContent as {
    files: Array<{
      path: string;
      channels: { code?: { fields: Record<string, number> } };
      symbols: Array<{ name: string; line: number }>;
    }>;
    trace: { channels: Array<{ name: string }> };
  };
  assert.deepEqual(
    located.files.map((f) => f.path),
    ['src/legacy.ts', 'src/math.ts'],
  );
  assert.equal(located.files[0]?.symbols[0]?.name, 'parseLegacy');
  assert.ok((located.files[0]?.channels.code?.fields.names ?? 0) > 0);
  assert.deepEqual(
    located.trace.channels.map((c) => c.name),
    ['code'],
  );
  const [content] = result.content as Array<{ type: string; text: string }>;
  assert.match(content?.text ?? '', /^ 1\. src\/legacy\.ts {2}\[code #1 /);
});

test('memory_recall answers a question about code through its code channel and says why', async () => {
  const result = await bridge.client.callTool({
    name: 'memory_recall',
    arguments: { query: 'where is the parsing of numbers written the old way?', explain: true },
  });
  const recalled = result.structuredContent as {
    hits: Array<{ memory: { conflictKey: string | null }; channels: Record<string, unknown> }>;
    trace: { code?: Array<{ path: string; fields: Record<string, number>; symbols: string[] }> };
  };
  assert.equal(recalled.hits[0]?.memory.conflictKey, 'code:file:src/legacy.ts');
  assert.ok('code' in (recalled.hits[0]?.channels ?? {}));
  assert.equal(recalled.trace.code?.[0]?.path, 'src/legacy.ts');
  assert.deepEqual(recalled.trace.code?.[0]?.symbols, ['parseLegacy:2']);
});

test('drift_check finds the memory naming a deleted file; a drift_fix dry run changes nothing', async () => {
  const { memory } = await call<{ memory: { id: string } }>('memory_remember', {
    content: 'Legacy number parsing lives in src/legacy.ts; keep it for old exports.',
    kind: 'fact',
  });
  rmSync(path.join(workspace, 'src/legacy.ts'));
  git('add', '-A');
  git('commit', '-q', '-m', 'Drop the legacy parser');

  const report = await call<{ score: number; history: { git: boolean }; memories: DriftMemory[] }>(
    'drift_check',
  );
  assert.equal(report.history.git, true);
  const drifted = report.memories.find((m) => m.id === memory.id);
  assert.ok(drifted, JSON.stringify(report.memories.map((m) => m.id)));
  assert.equal(drifted.status, 'dead');
  const claim = drifted.claims.find((c) => c.subject === 'src/legacy.ts');
  assert.equal(claim?.verdict, 'stale');
  assert.equal(claim?.evidence.reason, 'deleted');
  assert.equal(claim?.evidence.commit?.message, 'Drop the legacy parser');
  assert.ok(drifted.validTo);

  const before = await call<{ memory: Record<string, unknown> }>('memory_get', { id: memory.id });
  const fix = await call<{ dryRun: boolean; actions: Array<{ id: string; action: string }> }>('drift_fix');
  assert.equal(fix.dryRun, true);
  assert.ok(
    fix.actions.some((a) => a.id === memory.id && a.action === 'invalidate'),
    JSON.stringify(fix.actions),
  );
  const afterFix = await call<{ memory: Record<string, unknown> }>('memory_get', { id: memory.id });
  // memory_get itself counts an access; everything else is as before the dry run.
  assert.deepEqual({ ...afterFix.memory, accessCount: 0 }, { ...before.memory, accessCount: 0 });
  const history = await call<{ versions: unknown[] }>('memory_history', { id: memory.id });
  assert.equal(history.versions.length, 2, 'the check dated the memory once; the dry run added no version');
});

test('resources code://map and drift://report', async () => {
  const uris = (await bridge.client.listResources()).resources.map((r) => r.uri);
  assert.ok(uris.includes('code://map') && uris.includes('drift://report'), uris.join(', '));
  const map = await bridge.client.readResource({ uri: 'code://map' });
  const mapJson = JSON.parse((map.contents[0] as TextResourceContents).text) as {
    indexedFiles: number;
    text: string;
  };
  assert.equal(mapJson.indexedFiles, 2);
  assert.match(mapJson.text, /src\/math\.ts/);
  const drift = await bridge.client.readResource({ uri: 'drift://report' });
  const driftJson = JSON.parse((drift.contents[0] as TextResourceContents).text) as {
    score: number;
    memories: DriftMemory[];
  };
  assert.ok(driftJson.score > 0);
  assert.ok(driftJson.memories.some((m) => m.status === 'dead'));
});

test('code_scan re-checks the memories naming the files it found changed, within its budget', async () => {
  await call('code_scan'); // takes in the deletion of src/legacy.ts (the test above)
  const { memory } = await call<{ memory: { id: string } }>('memory_remember', {
    content: 'The calculator class is defined in src/math.ts.',
    kind: 'fact',
  });
  await call('drift_check');
  git('mv', 'src/math.ts', 'src/calc.ts');
  git('commit', '-q', '-m', 'Rename math.ts to calc.ts');

  const scan = await bridge.client.callTool({ name: 'code_scan', arguments: {} });
  const structured = scan.structuredContent as { drift: { checked: number; memories: DriftMemory[] } };
  // Only the memory naming the renamed file is checked (the legacy one names no changed path).
  assert.equal(structured.drift.checked, 1, JSON.stringify(structured.drift));
  const [moved] = structured.drift.memories;
  assert.equal(moved?.id, memory.id);
  assert.equal(moved.status, 'moved');
  assert.equal(moved.claims.find((c) => c.subject === 'src/math.ts')?.evidence.reason, 'renamed');
  const [content] = scan.content as Array<{ type: string; text: string }>;
  assert.match(content?.text ?? '', new RegExp(`MOVED ${memory.id}`));
  assert.match(content?.text ?? '', /src\/math\.ts: renamed -> src\/calc\.ts/);

  await call('memory_remember', { content: 'Totals are kept in src/calc.ts.', kind: 'fact' });
  await call('drift_check');
  rmSync(path.join(workspace, 'src/calc.ts'));
  git('add', '-A');
  git('commit', '-q', '-m', 'Drop the calculator');
  const small = await call<{ drift: { drifted: number; memories: DriftMemory[]; truncated: boolean } }>(
    'code_scan',
    { budget: 200 },
  );
  // The counts are complete; the list holds what the budget left room for, and says so.
  assert.equal(small.drift.drifted, 1, JSON.stringify(small.drift));
  assert.equal(small.drift.truncated, small.drift.memories.length === 0);
});
