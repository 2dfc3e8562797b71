import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { PoolConfig } from 'pg';
import { freePort } from '../teamServer/teamServerProcess';
import { tempDir } from './temp';

/**
 * A real PostgreSQL server for tests: `initdb` on a temp directory, `postgres` on a loopback port
 * with its unix socket in that directory, stopped by pid. As root (CI, these machines) it runs as
 * `nobody` through runuser, since postgres refuses to run as root. Without PostgreSQL installed,
 * root installs Debian's package; anyone else gets one line saying what to install.
 */
export interface PostgresServer {
  port: number;
  /** A URL for database `name` (created by `createDatabase`), as user `engram` (trust auth). */
  url(name?: string): string;
  createDatabase(name: string): Promise<void>;
  /**
   * Fast shutdown (SIGINT to the postmaster), waiting for its exit; `immediate`: SIGQUIT, as a
   * crash (no checkpoint: the next start recovers from the WAL).
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same directory and port (after stop). */
  start(): Promise<void>;
  /** The running postmaster's pid: its backends are its children (CPU per call in benches). */
  pid(): number;
}

const USER = 'engram';

/**
 * A pool for a test's own queries (one connection unless `config` says otherwise). A pg pool's
 * `end()` resolves before its idle connections have closed: a server stopped right after still
 * terminates them, and the pool reports that as an 'error' event, which without a listener is an
 * uncaught exception that fails the whole test file after every test in it passed. Queries fail
 * on their own, so the listener hides nothing a test checks.
 */
export function testPool(url: string, config: PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1, ...config });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * `durable`: PostgreSQL fsyncs its WAL at each commit as in production (benchmarks). Tests leave it
 * off: a restart they make is a clean shutdown, which writes everything out anyway.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const dir = tempDir('engram-pg-', { afterTest: false });
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, 65534, 65534); // nobody, who runs the server
  const run = (command: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'nobody', '--', command, ...args]] : [command, args];
  const [initCommand, initArgs] = run(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    USER,
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${(init.stderr || init.stdout).trim()}`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  async function start(): Promise<void> {
    const [command, args] = run(path.join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-k',
      dir,
      '-c',
      `fsync=${options.durable ? 'on' : 'off'}`,
    ]);
    const started = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    let log = '';
    await new Promise<void>((resolve, reject) => {
      started.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
        if (log.includes('ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`postgres exited with ${code}: ${log.slice(-500)}`)));
    });
  }

  const postmaster = () => Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);

  async function stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!child || child.exitCode !== null) return;
    // Under runuser, the child is runuser: SIGINT to the postmaster is a fast shutdown.
    process.kill(postmaster(), mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    await exited;
  }

  await start();
  process.once('exit', () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    port,
    url: (name = 'postgres') => `postgres://${USER}@127.0.0.1:${port}/${name}`,
    async createDatabase(name) {
      const result = spawnSync(
        path.join(bin, 'createdb'),
        ['-h', '127.0.0.1', '-p', String(port), '-U', USER, name],
        { encoding: 'utf8' },
      );
      if (result.status !== 0) throw new Error(`createdb ${name} failed: ${result.stderr.trim()}`);
      return Promise.resolve();
    },
    stop,
    start,
    pid: postmaster,
  };
}

/** The directory of initdb and postgres: pg_config's, else the newest /usr/lib/postgresql/N/bin. */
function postgresBinaries(): string {
  const found = findBinaries();
  if (found) return found;
  if (process.getuid?.() === 0) {
    const install = spawnSync('apt-get', ['install', '-y', 'postgresql'], { encoding: 'utf8' });
    const after = findBinaries();
    if (after) return after;
    throw new Error(
      `PostgreSQL is not installed and apt-get install -y postgresql failed: ${install.stderr.trim().split('\n').pop()}`,
    );
  }
  throw new Error(
    'PostgreSQL is not installed: install the postgresql package (apt-get install -y postgresql) to run these tests',
  );
}

function findBinaries(): string | undefined {
  const config = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const fromConfig = config.status === 0 ? config.stdout.trim() : '';
  if (fromConfig && existsSync(path.join(fromConfig, 'initdb'))) return fromConfig;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}
