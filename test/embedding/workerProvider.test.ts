import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import type { Logger } from '../../engine/host';
import { WorkerEmbeddingProvider } from '../../engine/embedding/workerEmbeddingProvider';
import { waitUntil } from '../support/waitUntil';

const SCRIPTED_WORKER = path.join(__dirname, 'fixtures', 'scriptedWorker.ts');

/** A logger that keeps what it is given, to check where worker output went. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { lines, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

function scriptedProvider(options: { timeoutMs?: number; batchSize?: number; logger?: Logger } = {}) {
  const provider = new WorkerEmbeddingProvider({
    id: 'scripted',
    // The scripted worker ignores the spec; the provider passes it through as workerData.
    spec: { backend: 'use-lite', assets: { modelJson: '', vocabJson: '', wasmDir: '' } },
    worker: { file: SCRIPTED_WORKER, execArgv: ['--require', 'tsx/cjs'] },
    logger: options.logger ?? recordingLogger(),
    batchSize: options.batchSize ?? 4,
    timeoutMs: options.timeoutMs ?? 20_000,
    checkFiles: () => {},
  });
  after(() => provider.dispose());
  return provider;
}

/** Fails the test instead of hanging it when a promise never settles. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const isUnavailable = (pattern: RegExp) => (error: unknown) => {
  assert.ok(EngramError.is(error, 'UNAVAILABLE'), `expected UNAVAILABLE, got ${String(error)}`);
  assert.match(error.message, pattern);
  return true;
};

describe('WorkerEmbeddingProvider (scripted worker)', () => {
  it('learns the dimension from the worker and returns its vectors in order', async () => {
    const provider = scriptedProvider();
    assert.equal(provider.dimension, 0);
    await provider.init();
    assert.equal(provider.dimension, 4);
    const vectors = await provider.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    const lengths = vectors.map((v) => Math.round((v[0]! / v[2]!) * 1000) / 1000);
    assert.deepEqual(lengths, [1, 2, 3, 4, 5]);
    assert.deepEqual(provider.stats(), { calls: 1, batches: 2, texts: 5 });
  });

  it('rejects the pending calls when the worker throws, and the next call starts a new worker', async () => {
    const provider = scriptedProvider({ batchSize: 2 });
    await provider.init();
    const results = await within(
      Promise.allSettled([
        provider.embed(['__throw__', 'x']),
        provider.embed(['y', 'z']),
        provider.embed(['w']),
      ]),
      10_000,
    );
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      isUnavailable(/embedding worker crashed: scripted crash/)(result.reason);
    }
    const vectors = await within(provider.embed(['again']), 10_000);
    assert.equal(vectors.length, 1);
  });

  it('rejects the pending calls when the worker exits', async () => {
    const provider = scriptedProvider();
    await within(assert.rejects(provider.embed(['__exit__']), isUnavailable(/exited with code 3/)), 10_000);
  });

  it('stops a worker that hangs and rejects its calls after timeoutMs', async () => {
    const provider = scriptedProvider({ timeoutMs: 2_000 });
    await provider.init();
    const started = Date.now();
    await within(
      assert.rejects(provider.embed(['__hang__']), isUnavailable(/took longer than 2000 ms/)),
      10_000,
    );
    assert.ok(Date.now() - started >= 1_900);
  });

  it('rejects only the failed request when the worker reports a failure, and keeps the worker', async () => {
    const provider = scriptedProvider();
    await assert.rejects(provider.embed(['__fail__']), isUnavailable(/embedding failed: scripted failure/));
    const vectors = await provider.embed(['fine']);
    assert.equal(vectors.length, 1);
  });

  it('sends worker stdout and stderr to the logger, not to this process', async () => {
    const logger = recordingLogger();
    const provider = scriptedProvider({ logger });
    await provider.embed(['__print__']);
    // Output is piped asynchronously: it arrives after the reply.
    const both = () =>
      logger.lines.includes('debug embedding worker scripted: scripted stdout line') &&
      logger.lines.includes('warn embedding worker scripted: scripted stderr line');
    await waitUntil(both, 10_000, 'both lines in the log').catch(() => {
      assert.fail(`worker output missing from the log:\n${logger.lines.join('\n')}`);
    });
  });

  it('lets a host that never calls dispose() exit once the worker is idle, printing nothing on stdout', () => {
    const child = spawnSync(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(__dirname, 'fixtures', 'forgetfulHost.ts')],
      { encoding: 'utf8', timeout: 30_000 },
    );
    assert.equal(child.signal, null, 'the child was still running after 30 s');
    assert.equal(child.status, 0, child.stderr);
    assert.match(child.stderr, /embedded 2/);
    assert.equal(child.stdout, '', 'the worker printed to the host stdout');
  });

  it('dispose rejects pending calls with CLOSED and refuses later ones', async () => {
    const provider = scriptedProvider();
    await provider.init();
    const pending = assert.rejects(provider.embed(['__hang__']), (error) => EngramError.is(error, 'CLOSED'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await provider.dispose();
    await pending;
    await assert.rejects(provider.embed(['a']), (error) => EngramError.is(error, 'CLOSED'));
    await assert.rejects(provider.init(), (error) => EngramError.is(error, 'CLOSED'));
  });

  it('validates embed() input', async () => {
    const provider = scriptedProvider();
    await assert.rejects(provider.embed('text' as unknown as string[]), (error) =>
      EngramError.is(error, 'INVALID_INPUT'),
    );
    await assert.rejects(
      provider.embed(['ok', 3 as unknown as string]),
      (error) => EngramError.is(error, 'INVALID_INPUT') && /texts\[1\] is number/.test(error.message),
    );
  });
});
