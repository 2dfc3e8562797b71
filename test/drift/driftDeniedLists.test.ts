import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import {
  BEFORE_CHANGE,
  BEFORE_COMMIT,
  CHANGE_COMMIT,
  driftHost,
  rememberAt,
  scannedAfterChange,
} from './driftHost';
import { GitRepository } from './gitRepository';

/** "the following properties are not implemented:" and the list under it (node-fetch's Request). */
const NOT_IMPLEMENTED = [
  '### Class: Request',
  '',
  'Due to the nature of Node.js, the following properties are not implemented at this moment:',
  '',
  '- `type`',
  '- `referrer`',
  '- `mode`',
  '',
  'The following extension properties are provided:',
  '',
  '- `follow`',
].join('\n');

const request = (extra: string) =>
  `class Request {\n  get type () { return '' }\n  get follow () { return 20 }\n${extra}}\nmodule.exports = Request\n`;
const REFERRER = '  get referrer () { return this.ref }\n';

const denials = (text: string) =>
  extractClaims(text)
    .filter((c) => c.kind === 'symbol')
    .map((c) => [c.subject, c.negated]);

describe('drift on lists a sentence denies', () => {
  it('reads the items under "the following ... are not implemented:" as denied, and nothing else', () => {
    assert.deepEqual(denials(NOT_IMPLEMENTED), [
      ['type', true],
      ['referrer', true],
      ['mode', true],
      ['follow', false],
    ]);
    // Announced as supported, or a denial without a list under it: nothing is denied.
    assert.deepEqual(denials('The following options are supported:\n\n- `agent`\n- `compress`'), [
      ['agent', false],
      ['compress', false],
    ]);
    assert.deepEqual(denials('The following is not supported: streaming bodies.\n\nUse `body` instead.'), [
      ['body', false],
    ]);
  });

  it('calls a denied item stale once the code defines it, and only when it did not define it then', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'src/request.js': request('') },
      'Add support for Referrer',
      { write: { 'src/request.js': request(REFERRER) } },
    );
    const id = await rememberAt(test, NOT_IMPLEMENTED, BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });
    const claims = report.memories.find((m) => m.id === id)?.claims ?? [];
    const verdict = (subject: string) => {
      const claim = claims.find((c) => c.subject === subject);
      return [claim?.verdict, claim?.evidence.commit?.hash];
    };
    assert.deepEqual(verdict('referrer'), ['stale', changing]);
    // Defined when the memory was written too: the denial never held, nothing drifted.
    assert.deepEqual(verdict('type'), ['unverifiable', undefined]);
    assert.deepEqual(verdict('mode'), ['ok', undefined]);
    assert.deepEqual(verdict('follow'), ['ok', undefined]);
  });

  it('reads a list block as denied when the line above it in its source document announces so', async () => {
    const denied = '- `type`\n- `referrer`\n- `mode`\n- `keepalive`';
    const supported = '- `follow`\n- `type`\n- `referrer`\n- `mode`';
    const intro = NOT_IMPLEMENTED.split('\n').slice(0, 3).join('\n');
    const readme = `# thelib\n\n${intro}\n\n${denied}\n\n## Supported\n\n${supported}\n`;
    const repo = new GitRepository();
    repo.commit('initial', BEFORE_COMMIT, { write: { 'README.md': readme, 'src/request.js': request('') } });
    const changing = repo.commit('Add support for Referrer', CHANGE_COMMIT, {
      write: { 'src/request.js': request(REFERRER) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const remember = async (content: string, file: string) =>
      (await test.call('remember', { content, validFrom: BEFORE_CHANGE, dedupe: false, source: { file } }))
        .memory.id;
    const once = await remember(denied, 'README.md');
    // These lines also stand in the list under "## Supported": which place it was is unknown.
    const twice = await remember('- `type`\n- `referrer`\n- `mode`', 'README.md');
    const report = await test.call('drift', { all: true });
    const referrer = (id: string) =>
      report.memories.find((m) => m.id === id)?.claims.find((c) => c.subject === 'referrer');
    assert.deepEqual([referrer(twice)?.negated, referrer(twice)?.verdict], [false, 'ok']);
    assert.deepEqual(
      [referrer(once)?.negated, referrer(once)?.verdict, referrer(once)?.evidence.commit?.hash],
      [true, 'stale', changing],
    );
  });
});
