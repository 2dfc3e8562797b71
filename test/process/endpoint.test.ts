import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { EngramError } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { assertEndpointTrusted, endpointFor } from '../../engine/process/endpoint';
import { startHost } from '../../engine/process/hostSession';
import { acquireLock } from '../../engine/process/lockFile';
import { tempDir } from './helpers';

const posix = process.platform !== 'win32';
const uid = process.getuid?.() ?? 0;

void describe('endpoint', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.remove());

  void test('is a socket in a per-user directory, stable per database and distinct between databases', () => {
    const socketBase = path.join(tmp.dir, 'sockets');
    const a = endpointFor(path.join(tmp.dir, 'a.db'), { tmpDir: socketBase });
    assert.match(a, new RegExp(`^${socketBase}/engram-${uid}/[0-9a-f]{20}\\.sock$`));
    assert.equal(endpointFor(path.join(tmp.dir, 'a.db'), { tmpDir: socketBase }), a);
    assert.notEqual(endpointFor(path.join(tmp.dir, 'b.db'), { tmpDir: socketBase }), a);
  });

  void test('two spellings of one database (relative, through a symlink) give one endpoint', () => {
    mkdirSync(path.join(tmp.dir, 'real'));
    symlinkSync(path.join(tmp.dir, 'real'), path.join(tmp.dir, 'link'));
    const direct = endpointFor(path.join(tmp.dir, 'real', 'm.db'));
    assert.equal(endpointFor(path.join(tmp.dir, 'link', 'm.db')), direct);
    const relative = path.relative(process.cwd(), path.join(tmp.dir, 'real', '..', 'real', 'm.db'));
    assert.equal(endpointFor(relative), direct);
  });

  void test('stays within the 104-byte sun_path limit even under a very long TMPDIR', () => {
    const longBase = path.join(tmp.dir, 'x'.repeat(90));
    const endpoint = endpointFor(path.join(tmp.dir, 'm.db'), { tmpDir: longBase });
    assert.ok(Buffer.byteLength(endpoint) < 104, endpoint);
    assert.ok(endpoint.startsWith(`/tmp/engram-${uid}/`));
  });

  void test('on Windows is a named pipe', () => {
    const pipe = endpointFor(path.join(tmp.dir, 'm.db'), { platform: 'win32' });
    assert.match(pipe, /^\\\\\.\\pipe\\engram-[0-9a-f]{20}$/);
  });

  void test('creates the socket directory with mode 0700 and tightens a wider one', { skip: !posix }, () => {
    const base = path.join(tmp.dir, 'base');
    const endpoint = endpointFor(path.join(tmp.dir, 'm.db'), { tmpDir: base });
    const dir = path.dirname(endpoint);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    chmodSync(dir, 0o755);
    endpointFor(path.join(tmp.dir, 'm.db'), { tmpDir: base });
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  void test('refuses a socket directory owned by another user', { skip: !posix || uid !== 0 }, () => {
    // Only root can hand a directory to someone else, so this runs where tests run as root (CI).
    const base = path.join(tmp.dir, 'base');
    mkdirSync(path.join(base, `engram-${uid}`), { recursive: true, mode: 0o700 });
    chownSync(path.join(base, `engram-${uid}`), 65534, 65534);
    assert.throws(
      () => endpointFor(path.join(tmp.dir, 'm.db'), { tmpDir: base }),
      (error) => EngramError.is(error, 'UNAVAILABLE') && /belongs to uid 65534/.test(error.message),
    );
    assert.throws(() => assertEndpointTrusted(path.join(base, `engram-${uid}`, 'x.sock')), /belongs to uid/);
  });

  void test('a client refuses an endpoint in a directory other users can enter', { skip: !posix }, () => {
    const open = path.join(tmp.dir, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    assert.throws(() => assertEndpointTrusted(path.join(open, 'x.sock')), /accessible to other users/);
  });

  void test('the host makes its socket file 0600', { skip: !posix }, async () => {
    const dbPath = path.join(tmp.dir, 'm.db');
    const endpoint = endpointFor(dbPath, { tmpDir: path.join(tmp.dir, 'sockets') });
    const attempt = await acquireLock(dbPath, endpoint);
    assert.ok(attempt.acquired);
    const host = await startHost({
      lock: attempt.lock,
      endpoint,
      logger: silentLogger,
      openHost: () =>
        Promise.resolve({ dispatch: () => Promise.resolve(null), close: () => Promise.resolve() }),
    });
    try {
      assert.ok(statSync(endpoint).isSocket());
      assert.equal(statSync(endpoint).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(endpoint)).mode & 0o777, 0o700);
    } finally {
      await host.close();
    }
  });
});
