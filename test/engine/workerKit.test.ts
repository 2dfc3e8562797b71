import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { WorkerChannel } from '../../engine/process/workerKit';

interface Request {
  do: 'echo' | 'print' | 'crash' | 'exit' | 'garbage' | 'hang';
  text?: string;
}
interface Reply {
  echoed: string;
}
const isReply = (message: unknown): message is Reply =>
  typeof (message as { echoed?: unknown } | null)?.echoed === 'string';

const SCRIPT = { file: path.join(__dirname, 'fixtures', 'kitWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };

function startKitWorker(onOutputLine?: (line: string, stream: 'stdout' | 'stderr') => void) {
  const worker = WorkerChannel.start<Request, Reply>(SCRIPT, {
    name: 'kit worker',
    isReply,
    ...(onOutputLine ? { onOutputLine } : {}),
  });
  after(() => worker.terminate());
  return worker;
}

const unavailable = (reason: string) => (error: unknown) => {
  assert.ok(EngramError.is(error, 'UNAVAILABLE'), `expected UNAVAILABLE, got ${String(error)}`);
  assert.equal(error.message, reason);
  return true;
};

describe('the worker kit', () => {
  it('answers requests in order and keeps the worker for the next one', async () => {
    const worker = startKitWorker();
    assert.deepEqual(await worker.nextReply({ do: 'echo', text: 'one' }), { echoed: 'one' });
    assert.deepEqual(await worker.nextReply({ do: 'echo', text: 'two' }), { echoed: 'two' });
    assert.equal(worker.ended, undefined);
  });

  it('turns a crash mid-request into a rejection with a one-line reason, heard once', async () => {
    const worker = startKitWorker();
    const reasons: string[] = [];
    worker.onEnd((reason) => reasons.push(reason));
    await assert.rejects(
      worker.nextReply({ do: 'crash' }),
      unavailable('kit worker crashed: deliberate crash'),
    );
    assert.deepEqual(reasons, ['kit worker crashed: deliberate crash']);
    assert.equal(worker.ended, 'kit worker crashed: deliberate crash');
    await assert.rejects(worker.nextReply({ do: 'echo', text: 'late' }), unavailable(reasons[0]!));
  });

  it('turns an exit mid-request into a rejection naming the exit code', async () => {
    const worker = startKitWorker();
    await assert.rejects(worker.nextReply({ do: 'exit' }), unavailable('kit worker exited with code 3'));
  });

  it('ends the worker when it sends a message outside the protocol', async () => {
    const worker = startKitWorker();
    await assert.rejects(
      worker.nextReply({ do: 'garbage' }),
      unavailable('kit worker sent an unexpected message'),
    );
  });

  it('rejects a pending request when the caller terminates the worker', async () => {
    const worker = startKitWorker();
    const pending = assert.rejects(
      worker.nextReply({ do: 'hang' }),
      unavailable('kit worker was terminated'),
    );
    await worker.terminate();
    await pending;
  });

  it("hands over the worker's output as whole lines, before the reply that follows it", async () => {
    const lines: string[] = [];
    const worker = startKitWorker((line, stream) => lines.push(`${stream}: ${line}`));
    assert.deepEqual(await worker.nextReply({ do: 'print' }), { echoed: 'printed' });
    assert.deepEqual(lines, ['stdout: a line on stdout', 'stderr: half a line, then the rest']);
  });

  it("lets a host exit while an unref'd worker idles, printing nothing on stdout", () => {
    const child = spawnSync(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(__dirname, 'fixtures', 'idleKitHost.ts')],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(child.signal, null, 'the child was still running after 60 s');
    assert.equal(child.status, 0, child.stderr);
    assert.match(child.stderr, /reply printed/);
    assert.equal(child.stdout, '');
  });
});
