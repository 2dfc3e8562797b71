import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusalIn } from '../../engine/drift/refusedOptions';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const request = (body: string) =>
  `class InvalidArgumentError extends Error {}\n\nfunction request ({ path, maxRedirections, bodyTimeout } = {}) {\n${body}  return [path, maxRedirections, bodyTimeout]\n}\n\nmodule.exports = { request, InvalidArgumentError }\n`;

describe('drift on options the code now refuses', () => {
  it('an option whose name lives on only in a thrown refusal is stale since the commit that added it', async () => {
    const refusal = (name: string) =>
      `  if (${name} != null && ${name} !== 0) {\n    throw new InvalidArgumentError('${name} is not supported, use the redirect interceptor')\n  }\n`;
    const { test, changing } = await scannedAfterChange(
      { 'lib/request.js': request(refusal('bodyTimeout')) },
      'Redirects move to an interceptor',
      { write: { 'lib/request.js': request(refusal('bodyTimeout') + refusal('maxRedirections')) } },
    );
    const redirects = await rememberAt(
      test,
      'Set the `maxRedirections` option to follow redirects.',
      BEFORE_CHANGE,
    );
    const path = await rememberAt(test, 'Set the `path` option to the request path.', BEFORE_CHANGE);
    // Refused already when the memory was written: it described the refusal's time; nothing drifted.
    const timeout = await rememberAt(test, 'Set the `bodyTimeout` option to wait longer.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const claimOf = (id: string, subject: string) =>
      memoryIn(report, id).claims.find(
        (c) => (c.kind === 'config' || c.kind === 'symbol') && c.subject === subject,
      );
    const refused = claimOf(redirects, 'maxRedirections');
    assert.equal(refused?.verdict, 'stale');
    assert.equal(refused?.evidence.reason, 'the code refuses it: "maxRedirections is not supported"');
    assert.equal(refused?.evidence.commit?.hash, changing);
    assert.equal(claimOf(path, 'path')?.verdict, 'ok');
    assert.equal(claimOf(timeout, 'bodyTimeout')?.verdict, 'ok');
  });

  it('reads a refusal only where it is the whole predicate of a thrown message', () => {
    const thrown = (message: string) => `throw new TypeError('${message}')`;
    assert.equal(
      refusalIn(
        thrown('The "execPath" option has been removed. Please use the "nodePath" option instead.'),
        'execPath',
      ),
      'The "execPath" option has been removed',
    );
    assert.equal(refusalIn(thrown('execPath is not supported in browsers'), 'execPath'), undefined);
    assert.equal(refusalIn(thrown('nodePath is not supported'), 'execPath'), undefined);
    // A log line is no refusal: the option still works.
    assert.equal(refusalIn("console.warn('execPath is not supported, ignored')", 'execPath'), undefined);
  });
});
