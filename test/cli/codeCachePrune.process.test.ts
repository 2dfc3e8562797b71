import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/temp';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const DAY_MS = 24 * 3600 * 1000;

/** The code cache directory engine/bin/codeCache.ts keeps under `tmp` (this user's). */
function cacheDirectory(tmp: string): string {
  const uid = process.getuid?.();
  return path.join(tmp, `engram-code-cache${uid === undefined ? '' : `-${uid}`}`);
}

function olderBy(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(file, then, then);
}

describe('the CLI code cache (engine/bin/codeCache.ts)', () => {
  it('removes caches unused for a week when it writes one, and keeps those in use', () => {
    const dir = tempDir();
    const tmp = tempDir();
    const caches = cacheDirectory(tmp);
    mkdirSync(caches, { recursive: true, mode: 0o700 });
    const file = (name: string, ageMs: number) => {
      writeFileSync(path.join(caches, name), 'old', { mode: 0o600 });
      olderBy(path.join(caches, name), ageMs);
      return path.join(caches, name);
    };
    const stale = file('engineCore-0000000000000000000000000000dead.cache', 8 * DAY_MS);
    const recent = file('engineCore-0000000000000000000000000000beef.cache', 2 * DAY_MS);
    const staleTemp = file('engineCore-0000000000000000000000000000dead.cache.123.tmp', 2 * DAY_MS);
    const other = file('notes.txt', 30 * DAY_MS);
    const run = () =>
      spawnSync(process.execPath, [CLI, '--db', path.join(dir, 'memory.db'), 'stats'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, TMPDIR: tmp, ENGRAM_DB: '', ENGRAM_USER_DB: path.join(dir, 'user.db') },
      });
    assert.equal(run().status, 0);
    assert.equal(existsSync(stale), false, 'a cache unused for 8 days is removed');
    assert.equal(existsSync(staleTemp), false, "a killed writer's temporary file is removed");
    assert.equal(existsSync(recent), true, 'a cache used 2 days ago stays');
    assert.equal(existsSync(other), true, 'only cache files are touched');
    const written = readdirSync(caches).filter((n) => n.endsWith('.cache') && !n.includes('beef'));
    assert.equal(written.length, 1, readdirSync(caches).join(', '));

    // A run that uses its cache marks it used, so a cache in use never ages out.
    const own = path.join(caches, written[0]!);
    olderBy(own, 3 * DAY_MS);
    assert.equal(run().status, 0);
    assert.ok(Date.now() - statSync(own).mtimeMs < DAY_MS, 'the cache a run used was marked');
  });
});
