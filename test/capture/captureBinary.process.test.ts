import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { engramProcess } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { FIXTURES, SESSION, SHOP } from './captureDb';

test('dist/cli.js: capture refuses while off (exit 1, one line on stderr), then reads and says what', () => {
  const home = tempDir();
  const root = path.join(home, 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const file = path.join(home, '.claude', 'projects', claudeProjectName(root), `${SESSION}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    readFileSync(path.join(FIXTURES, 'claude-session.jsonl'), 'utf8').replaceAll(SHOP, root),
  );
  const env = {
    HOME: home,
    CLAUDE_CONFIG_DIR: '',
    CODEX_HOME: '',
    GEMINI_CLI_HOME: '',
    ENGRAM_EMBEDDING: 'off',
  };

  const off = engramProcess(root, ['capture', 'run'], env, 60_000);
  assert.deepEqual([off.code, off.out], [1, '']);
  assert.equal(off.err, 'engram: capture is off for this workspace: run `engram capture enable` first\n');
  assert.equal(engramProcess(root, ['capture', 'enable'], env, 60_000).code, 0);
  const run = engramProcess(root, ['--json', 'capture', 'run', '--agent', 'claude-code'], env, 60_000);
  assert.equal(run.code, 0, run.err);
  const report = JSON.parse(run.out) as { sources: Array<{ records: number }>; summaries: number };
  assert.deepEqual(
    report.sources.map((s) => s.records),
    [17],
  );
  assert.equal(report.summaries, 1);
});
