import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { bundledFixture } from '../support/fixtureBundle';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'queryScaling.ts');
const SMALL = 100_000;
const LARGE = 1_000_000;
/** Far above a linear 1 MB call (well under a second); a quadratic one took 8 s at 40 KB. */
const CEILING_MS = 20_000;
/** Ten times the input: about 10x for a linear step, 100x for a quadratic one. */
const MAX_RATIO = 40;
/** Below this a time is mostly noise, so the ratio is taken against at least this much. */
const FLOOR_MS = 25;

interface Outcome {
  timings: Map<string, Map<number, number>>;
  stalled?: string;
  stderr: string;
}

/** Runs the fixture; a call that prints nothing for CEILING_MS has stalled and ends the child. */
function runFixture(): Promise<Outcome> {
  const child = spawn(process.execPath, [bundledFixture(FIXTURE), String(SMALL), String(LARGE)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const outcome: Outcome = { timings: new Map(), stderr: '' };
  let current = '';
  let watchdog: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      outcome.stalled = current;
      child.kill('SIGKILL');
    }, CEILING_MS);
  };
  arm();
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [event, name = '', chars = '', ms = ''] = line.split(' ');
      if (event === 'start') current = `${name} at ${chars} characters`;
      if (event === 'done') {
        const byChars = outcome.timings.get(name) ?? new Map<number, number>();
        byChars.set(Number(chars), Number(ms));
        outcome.timings.set(name, byChars);
      }
      arm();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (outcome.stderr += chunk));
  return new Promise((resolve) =>
    child.on('exit', () => {
      clearTimeout(watchdog);
      resolve(outcome);
    }),
  );
}

test('query analysis grows linearly: 1 MB queries of every shape, no call stalls, 10x input is not 100x time', async () => {
  const outcome = await runFixture();
  assert.equal(outcome.stalled, undefined, `${outcome.stalled} took over ${CEILING_MS} ms`);
  assert.equal(outcome.stderr, '');
  assert.ok(outcome.timings.size >= 28, `only ${outcome.timings.size} steps ran`);
  for (const [name, byChars] of outcome.timings) {
    const small = byChars.get(SMALL);
    const large = byChars.get(LARGE);
    assert.ok(small !== undefined && large !== undefined, `${name} did not run at both sizes`);
    const ratio = large / Math.max(small, FLOOR_MS);
    assert.ok(
      ratio < MAX_RATIO,
      `${name}: ${small} ms at ${SMALL} characters, ${large} ms at ${LARGE} (x${ratio.toFixed(1)})`,
    );
  }
});
