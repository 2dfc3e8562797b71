import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { evaluateArithmetic, passedOnDefaults } from '../../engine/drift/defaultExpressions';
import type { DriftReport } from '../../engine/drift/driftReport';
import { BEFORE_CHANGE, fixAccepted, rememberAt, scannedAfterChange } from './driftHost';

const logger = (level: string) =>
  `const defaultOptions = {\n  level: '${level}',\n  messageKey: 'msg',\n}\n\nfunction destination (dest = 1) {\n  return dest\n}\n\nfunction wait (ms = 60 * 1000) {\n  return ms\n}\n\nfunction logger (opts) {\n  const options = Object.assign({}, defaultOptions, opts)\n  if (options.colorize) options.level = 'debug'\n  return options\n}\n\nmodule.exports = { logger, destination, wait }\n`;

/** A memory's default claim: its last config claim (an option's name is claimed before its default). */
function defaultClaim(report: DriftReport, id: string) {
  const claim = report.memories
    .find((m) => m.id === id)
    ?.claims.filter((c) => c.kind === 'config')
    .at(-1);
  assert.ok(claim, `no default claim for ${id}: ${JSON.stringify(report.memories)}`);
  return claim;
}

/**
 * The config claims of an option list remembered before a commit that changes `Client`'s body
 * timeout default from 30e3 to 300e3 (its other options: `options`, destructured, with defaults
 * as written; `keepAliveThreshold` and `headersTimeout` default to 1e3 when missing).
 */
async function clientDefaults(options: string, lines: string[]) {
  const client = (bodyTimeout: string) =>
    `class Client {\n  constructor ({ bodyTimeout, ${options} } = {}) {\n    this.bodyTimeout = bodyTimeout != null ? bodyTimeout : ${bodyTimeout}\n    this.threshold = keepAliveThreshold == null ? 1e3 : keepAliveThreshold\n    this.headersTimeout = headersTimeout != null ? headersTimeout : 1e3\n  }\n}\nmodule.exports = Client\n`;
  const { test, changing } = await scannedAfterChange(
    { 'lib/client.js': client('30e3') },
    'Wait five minutes for a body',
    { write: { 'lib/client.js': client('300e3') } },
  );
  const list = await rememberAt(test, lines.join('\n'), BEFORE_CHANGE);
  const report = await test.call('drift', { all: true });
  const claims = report.memories.find((m) => m.id === list)?.claims.filter((c) => c.kind === 'config') ?? [];
  return { claims, changing };
}

describe('drift on documented defaults', () => {
  it('checks a default against the defaults object or parameter default, and never guesses from a word', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'lib/logger.js': logger('info') },
      'Log warnings and up by default',
      { write: { 'lib/logger.js': logger('warn') } },
    );
    const level = await rememberAt(test, "The `level` option defaults to `'info'`.", BEFORE_CHANGE);
    const key = await rememberAt(test, "`messageKey` (default: `'msg'`) names the message.", BEFORE_CHANGE);
    const dest = await rememberAt(
      test,
      'Options of `destination`:\n\n* `dest` (number): where to write. Default: `1`',
      BEFORE_CHANGE,
    );
    const wait = await rememberAt(test, '`wait(ms)` waits; `ms` defaults to `60000`.', BEFORE_CHANGE);
    const colorize = await rememberAt(test, 'The `colorize` option defaults to `true`.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const stale = defaultClaim(report, level);
    assert.deepEqual([stale.subject, stale.verdict, stale.evidence.now], ['level', 'stale', 'warn']);
    assert.equal(stale.evidence.commit?.hash, changing);
    assert.equal(defaultClaim(report, key).verdict, 'ok');
    assert.deepEqual(
      [defaultClaim(report, dest).subject, defaultClaim(report, dest).verdict],
      ['dest', 'ok'],
    );
    // Read in an `if`, declared nowhere as a default: not checkable, so never stale.
    assert.equal(defaultClaim(report, colorize).verdict, 'unverifiable');
    // Declared as arithmetic (`60 * 1000`): read as the number it comes to.
    assert.equal(defaultClaim(report, wait).verdict, 'ok');

    await fixAccepted(test);
    assert.equal(
      (await test.call('get', { id: level })).memory.content,
      "The `level` option defaults to `'warn'`.",
    );
  });

  it('follows a default through a constant, arithmetic and a function the option is passed to, per declaring file', async () => {
    const hsts = (days: number) =>
      `const DEFAULT_MAX_AGE = ${days} * 24 * 60 * 60;\n\nexport interface StrictTransportSecurityOptions {\n  maxAge?: number;\n}\n\nfunction parseMaxAge(value: number = DEFAULT_MAX_AGE): number {\n  return Math.floor(value);\n}\n\nexport default function strictTransportSecurity(options: StrictTransportSecurityOptions = {}) {\n  return \`max-age=\${parseMaxAge(options.maxAge)}\`;\n}\n`;
    const expectCt =
      'export interface ExpectCtOptions {\n  maxAge?: number;\n}\n\nfunction parseMaxAge(value: number = 0): number {\n  return Math.floor(value);\n}\n\nexport default function expectCt(options: ExpectCtOptions = {}) {\n  return `max-age=${parseMaxAge(options.maxAge)}`;\n}\n';
    const { test, changing } = await scannedAfterChange(
      { 'middlewares/hsts/index.ts': hsts(180), 'middlewares/expect-ct/index.ts': expectCt },
      'Drop Expect-CT; HSTS max-age one year',
      { write: { 'middlewares/hsts/index.ts': hsts(365) }, remove: ['middlewares/expect-ct/index.ts'] },
    );
    const year = await rememberAt(
      test,
      '`options.maxAge` is the number of seconds browsers should remember to prefer HTTPS. It defaults to `15552000`, which is 180 days.',
      BEFORE_CHANGE,
    );
    const expect = await rememberAt(
      test,
      '`options.maxAge` is the number of seconds to expect Certificate Transparency. It defaults to `0`.',
      BEFORE_CHANGE,
    );
    const never = await rememberAt(test, '`options.maxAge` is the age. It defaults to `7`.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const changed = defaultClaim(report, year);
    assert.deepEqual([changed.verdict, changed.evidence.now], ['stale', '31536000']);
    assert.equal(changed.evidence.commit?.hash, changing);
    // Computed from a constant: review, never a rewrite of "which is 180 days" into a bare number.
    assert.equal(changed.evidence.repair, undefined);
    // expectCt's default went with its module; it is not HSTS's maxAge.
    const gone = defaultClaim(report, expect);
    assert.deepEqual(
      [gone.verdict, gone.evidence.now, gone.evidence.commit?.hash],
      ['stale', undefined, changing],
    );
    assert.deepEqual(gone.evidence.foundIn, ['middlewares/expect-ct/index.ts']);
    // No code declared 7 when it was written: nothing drifted.
    assert.equal(defaultClaim(report, never).verdict, 'unverifiable');
  });

  it('evaluates only arithmetic of number literals, and follows an option only into a parameter of the same file', () => {
    assert.deepEqual(
      ['(1 + 2) * 3 - 4 / 2', '2 - 1 - 1', '-5 * 2', '1_000 * 30e3', 'a * 2', '2 *', '(1 + 2'].map(
        evaluateArithmetic,
      ),
      [7, 0, -10, 30_000_000, undefined, undefined, undefined],
    );
    const source =
      'function parse (value = 10, unit = "s") {}\nparse(options.wait)\nother(options.wait)\nparse(1, opts.unit)\n';
    assert.deepEqual(passedOnDefaults(source, 'wait'), ['10']);
    assert.deepEqual(passedOnDefaults(source, 'unit'), ['"s"']);
  });

  it('never calls a default changed when the code now gives an expression it cannot read', async () => {
    const client = (retries: string) =>
      `function createClient ({ defaultRetries } = {}) {\n  return function request ({ retries = ${retries} } = {}) {\n    return retries\n  }\n}\nmodule.exports = createClient\n`;
    const { test } = await scannedAfterChange({ 'lib/client.js': client('3') }, 'Retries from the client', {
      write: { 'lib/client.js': client('defaultRetries') },
    });
    const id = await rememberAt(test, 'The `retries` option defaults to `3`.', BEFORE_CHANGE);
    const claim = defaultClaim(await test.call('drift', { all: true }), id);
    assert.deepEqual(
      [claim.verdict, claim.evidence.reason],
      ['unverifiable', "the code's default is an expression: defaultRetries"],
    );
  });

  it('calls a default stale when the code, which left it to the platform then, now declares another one', async () => {
    // `serialization` was passed through to the platform; a new module now declares its own default.
    const run = `function run (file, { serialization, limit = 10 } = {}) {\n  return spawn(file, { serialization, limit })\n}\nmodule.exports = run\n`;
    const { test, changing } = await scannedAfterChange(
      { 'lib/run.js': run },
      'Advanced serialization by default',
      {
        write: {
          'lib/options.js': `function normalize ({ serialization = 'advanced', ...rest } = {}) {\n  return { serialization, ...rest }\n}\nmodule.exports = normalize\n`,
        },
      },
    );
    const adopted = await rememberAt(test, "The `serialization` option defaults to `'json'`.", BEFORE_CHANGE);
    const same = await rememberAt(
      test,
      "The `serialization` option defaults to `'advanced'`.",
      BEFORE_CHANGE,
    );
    // `limit` was declared then with another value: the memory never held, nothing drifted.
    const never = await rememberAt(test, 'The `limit` option defaults to `5`.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const stale = defaultClaim(report, adopted);
    assert.deepEqual([stale.verdict, stale.evidence.now], ['stale', 'advanced']);
    assert.equal(stale.evidence.commit?.hash, changing);
    assert.equal(defaultClaim(report, same).verdict, 'ok');
    assert.equal(defaultClaim(report, never).verdict, 'unverifiable');
  });

  it('leaves a default the code did not declare then unverifiable when several places declare one now', async () => {
    const { test } = await scannedAfterChange(
      { 'lib/run.js': 'function run (file, { encoding } = {}) {\n  return spawn(file, { encoding })\n}\n' },
      'Encodings per stream',
      {
        write: {
          'lib/stdout.js': "function out ({ encoding = 'utf8' } = {}) {\n  return encoding\n}\n",
          'lib/stderr.js': "function err ({ encoding = 'buffer' } = {}) {\n  return encoding\n}\n",
        },
      },
    );
    const id = await rememberAt(test, "The `encoding` option defaults to `'latin1'`.", BEFORE_CHANGE);
    assert.equal(defaultClaim(await test.call('drift', { all: true }), id).verdict, 'unverifiable');
  });

  it('reads "`x` is `v` by default" and "By default, `x` is `v`" as that option\'s default, and checks it', async () => {
    const defaults = (text: string) =>
      extractClaims(text)
        .filter((c) => c.isDefault)
        .map((c) => [c.subject, c.value, text.slice(c.span[0], c.span[1])]);
    assert.deepEqual(
      defaults('`options.useDefaults` is `false` by default, but will be `true` in the next major version.'),
      [['options.useDefaults', 'false', 'false']],
    );
    assert.deepEqual(defaults('The `strict` option is set to `true` by default.'), [
      ['strict', 'true', 'true'],
    ]);
    assert.deepEqual(defaults("By default, `level` is `'info'`."), [['level', 'info', "'info'"]]);
    // Not a default: what happens by default, or a value that is not the option's.
    assert.deepEqual(defaults('`watch` is enabled by default.'), []);
    assert.deepEqual(defaults('`cwd` is `process.cwd()` unless set, and `false` by default elsewhere.'), []);

    const csp = (useDefaults: string) =>
      `function contentSecurityPolicy ({ useDefaults = ${useDefaults} } = {}) {\n  return useDefaults\n}\nmodule.exports = contentSecurityPolicy\n`;
    const { test, changing } = await scannedAfterChange(
      { 'middlewares/csp.js': csp('false') },
      'Content-Security-Policy: enable useDefaults by default',
      { write: { 'middlewares/csp.js': csp('true') } },
    );
    const id = await rememberAt(
      test,
      '`options.useDefaults` is `false` by default, but will be `true` in the next major version.',
      BEFORE_CHANGE,
    );
    const claim = defaultClaim(await test.call('drift', { all: true }), id);
    assert.deepEqual(
      [claim.verdict, claim.evidence.now, claim.evidence.commit?.hash],
      ['stale', 'true', changing],
    );
  });

  it('calls a boolean default stale when its declaration now computes it from other state', async () => {
    const request = (blocking: string) =>
      `class Request {\n  constructor ({ method, blocking, reset }) {\n    this.method = method\n    this.blocking = ${blocking}\n    this.reset = reset ?? other\n  }\n}\nmodule.exports = Request\n`;
    const { test, changing } = await scannedAfterChange(
      { 'lib/request.js': request('blocking == null ? false : blocking') },
      'Assume blocking unless HEAD',
      { write: { 'lib/request.js': request("blocking ?? this.method !== 'HEAD'") } },
    );
    const id = await rememberAt(
      test,
      '* **blocking** `boolean` (optional) - Default: `false`',
      BEFORE_CHANGE,
    );
    const claim = defaultClaim(await test.call('drift', { all: true }), id);
    assert.deepEqual(
      [claim.verdict, claim.evidence.now, claim.evidence.commit?.hash, claim.evidence.repair],
      ['stale', "this.method !== 'HEAD'", changing, undefined],
    );
  });

  it('reads option lists with bold names and defaults in parentheses, and checks them the same way', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'lib/logger.js': logger('info') },
      'Log warnings and up by default',
      { write: { 'lib/logger.js': logger('warn') } },
    );
    const list = await rememberAt(
      test,
      [
        'Options:',
        '',
        "* __level:__ the lowest level logged (default 'info')",
        '* __messageKey:__ the key of the message (Default: **msg**)',
        '* __colorize:__ colours (default: set by the terminal)',
      ].join('\n'),
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const config =
      report.memories.find((m) => m.id === list)?.claims.filter((c) => c.kind === 'config') ?? [];
    // Each bold name is also a config key claim, present in the code.
    assert.deepEqual(
      config.filter((c) => c.evidence.reason === 'present').map((c) => c.subject),
      ['level', 'messageKey', 'colorize'],
    );
    const claims = config.filter((c) => c.evidence.reason !== 'present');
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict]),
      [
        ['level', 'stale'],
        ['messageKey', 'ok'],
      ],
      'a default stated in words ("set by the terminal") is no value to compare',
    );
    assert.equal(claims[0]?.evidence.commit?.hash, changing);
  });
  it('reads a bare literal default ("default to 2") and checks it against an option fallback (`options.x || 2`)', async () => {
    const app = (offset: number) =>
      `module.exports = class Application {\n  constructor (options) {\n    this.subdomainOffset = options.subdomainOffset || ${offset}\n    this.proxyIpHeader = options.proxyIpHeader || 'X-Forwarded-For'\n    this.maxIpsCount = options.maxIpsCount ?? 0\n  }\n}\n`;
    const { test, changing } = await scannedAfterChange(
      { 'lib/application.js': app(2) },
      'Ignore three subdomain parts by default',
      { write: { 'lib/application.js': app(3) } },
    );
    const list = await rememberAt(
      test,
      [
        'Settings of the application:',
        '',
        '  - `app.subdomainOffset` offset of `.subdomains` to ignore, default to 2',
        '  - `app.proxyIpHeader` proxy ip header, default to `X-Forwarded-For`',
        '  - `app.maxIpsCount` max ips read from proxy ip header, default to 0 (means infinity)',
      ].join('\n'),
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const claims =
      report.memories.find((m) => m.id === list)?.claims.filter((c) => c.kind === 'config') ?? [];
    // Each option is also a config key claim (present: ok); only the changed default is stale.
    const stale = claims.filter((c) => c.verdict !== 'ok');
    assert.deepEqual(
      stale.map((c) => [c.subject, c.verdict, c.evidence.now, c.evidence.commit?.hash]),
      [['app.subdomainOffset', 'stale', '3', changing]],
    );
    assert.deepEqual(
      [...new Set(claims.map((c) => c.subject))],
      ['app.subdomainOffset', 'app.proxyIpHeader', 'app.maxIpsCount'],
    );
  });

  it('checks a default written as a test for a missing value (`x != null ? x : 300e3`), in exponent notation', async () => {
    const { claims, changing } = await clientDefaults('keepAliveThreshold', [
      '* **bodyTimeout** `number | null` (optional) - Default: `30e3` - Time between body chunks.',
      '* **keepAliveThreshold** `number | null` (optional) - Default: `1000` - Subtracted from hints.',
    ]);
    assert.deepEqual(
      claims
        .filter((c) => c.verdict !== 'ok')
        .map((c) => [c.subject, c.evidence.now, c.evidence.commit?.hash]),
      [['bodyTimeout', '300e3', changing]],
    );
    assert.equal(claims.filter((c) => c.subject === 'keepAliveThreshold' && c.verdict === 'ok').length, 2);
  });

  it('reads a default stated as a duration in words and compares it in milliseconds or its own unit', async () => {
    const { claims, changing } = await clientDefaults('headersTimeout, idle = 5000, retry = 2', [
      '* **bodyTimeout** `number | null` (optional) - Time between body chunks. Defaults to 30 seconds.',
      '* **headersTimeout** `number | null` (optional) - Time to wait for headers. Defaults to 1 second.',
      '* **idle** `number` - Default: `5000` ms.',
      '* **retry** `number` - How long to back off, defaults to 2 seconds.',
    ]);
    const stale = claims.filter((c) => c.verdict === 'stale');
    assert.deepEqual(
      stale.map((c) => [c.subject, c.evidence.now, c.evidence.commit?.hash]),
      [['bodyTimeout', '300e3', changing]],
    );
    // 1 second is 1e3 ms; 5000 ms is 5000; 2 seconds is `retry = 2` read in its own unit.
    assert.deepEqual(
      claims.filter((c) => c.evidence.reason === 'the code declares this default').map((c) => c.subject),
      ['headersTimeout', 'idle', 'retry'],
    );
    assert.equal(stale[0]?.evidence.repair, undefined, "the code's unit is not known: review, not a rewrite");
  });

  it('keeps the unit written after a default ("defaults to 30 seconds", "Default: `5000` ms")', () => {
    const text = [
      'The `timeout` option defaults to 30 seconds.',
      '* `idle`: Default: `5000` ms.',
      '* `wait`: how long. Defaults to 2 minutes.',
      '* `count`: Default: `3`.',
    ].join('\n');
    const defaults = extractClaims(text)
      .filter((c) => c.kind === 'config' && c.isDefault === true)
      .map((c) => [c.subject, c.value]);
    assert.deepEqual(defaults, [
      ['timeout', '30 seconds'],
      ['idle', '5000 ms'],
      ['wait', '2 minutes'],
      ['count', '3'],
    ]);
  });

  it('reads "(`/` by default)" in an option item as that option\'s default, a condition after it too', () => {
    const text = [
      '* `path`: a string indicating the path of the cookie (`/` by default).',
      '* `secure`: sent over HTTPS only (`false` by default for HTTP, `true` by default for HTTPS).',
      '* `domain`: the domain of the cookie (no default).',
    ].join('\n');
    const defaults = extractClaims(text)
      .filter((c) => c.kind === 'config' && c.isDefault === true)
      .map((c) => [c.subject, c.value]);
    assert.deepEqual(defaults, [
      ['path', '/'],
      ['secure', 'false'],
    ]);
  });

  it('reads "It defaults to `x`." in a paragraph that documents one option ("`options.maxAge` is ...")', () => {
    const text = [
      '`options.maxAge` is the number of seconds to remember. If passed a non-integer, it is rounded down. It defaults to `15552000`, which is 180 days.',
      '',
      '`options.enforce` is a boolean. Defaults to `false`.',
      '',
      // Not a paragraph about one option: nothing to attach the default to.
      'The middleware sets two headers. It defaults to `strict`.',
      '',
      'Pass `options.enforce` to enforce. Defaults to `true`.',
    ].join('\n');
    const defaults = extractClaims(text)
      .filter((c) => c.kind === 'config' && c.isDefault === true)
      .map((c) => [c.subject, c.value]);
    assert.deepEqual(defaults, [
      ['options.maxAge', '15552000'],
      ['options.enforce', 'false'],
    ]);
  });
});
