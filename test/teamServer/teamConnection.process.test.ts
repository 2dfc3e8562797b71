import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { sendToTeam } from '../../engine/teamClient/teamConnection';

/**
 * The client's connection to the team server (engine/teamClient/teamConnection.ts) against a
 * real Node HTTP server in its own process that, as the team server does, closes a keep-alive
 * connection after it idles (2 s here instead of 5 s, so the test is quicker: a shorter one, sent
 * as `Keep-Alive: timeout=1` or 0, makes the client's agent drop the connection itself at once),
 * and logs the request ids it received on stdout.
 */
const SERVER = `
const http = require('node:http');
const server = http.createServer({ keepAliveTimeout: 2000 }, (req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    process.stdout.write('received ' + JSON.parse(body).id + '\\n');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ result: { ok: true } }));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;
let child: ChildProcess;
let url = '';
let output = '';
before(async () => {
  child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const port = /port (\d+)/.exec(output)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
  });
});
after(() => {
  child.kill();
});

it('a kept-alive connection the server closed while this thread was busy: the call goes on a new one', async () => {
  const target = { url, token: 'engram_test' };
  assert.equal((await sendToTeam(target, 'keepalive-first', 'stats', {})).kind, 'answered');
  // The thread busy past the server's keep-alive timeout (a long synchronous task in the same
  // thread): the server's close is not seen before the next call picks the pooled connection.
  await delay(10);
  const until = Date.now() + 3000;
  while (Date.now() < until) {
    // busy, as a long synchronous task is
  }
  const second = await sendToTeam(target, 'keepalive-second', 'stats', {});
  assert.deepEqual(second, { kind: 'answered', result: { ok: true } });
  await delay(50);
  assert.deepEqual(
    [...output.matchAll(/received (\S+)/g)].map((m) => m[1]),
    ['keepalive-first', 'keepalive-second'],
    'each request reached the server once',
  );
});
