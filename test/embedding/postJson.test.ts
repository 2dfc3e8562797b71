import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { postJson } from '../../engine/embedding/postJson';

/**
 * A connection the server drops before answering (what a keep-alive socket closed by the server
 * just as the client reuses it looks like, seen as ECONNRESET in a loaded test run) is tried once
 * more on a new connection; a server that keeps dropping is still reported, once.
 */
describe('postJson on a dropped connection', () => {
  let requests = 0;
  let drops = 0;
  const server = createServer((request, response) => {
    requests++;
    if (drops > 0) {
      drops--;
      request.socket.destroy();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ok: true }));
  });
  const listening = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`),
    ),
  );
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends again once when the connection is dropped before any answer', async () => {
    const url = await listening;
    requests = 0;
    drops = 1;
    assert.deepEqual(await postJson(url, { a: 1 }, { timeoutMs: 5000 }), { ok: true });
    assert.equal(requests, 2);
  });

  it('reports the drop when it happens again, after one more try', async () => {
    const url = await listening;
    requests = 0;
    drops = 5;
    await assert.rejects(postJson(url, { a: 1 }, { timeoutMs: 5000 }), (error: Error) => {
      assert.match(error.message, new RegExp(`^POST ${url} failed: fetch failed \\(`));
      return true;
    });
    assert.equal(requests, 2);
  });
});
