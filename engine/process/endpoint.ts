/**
 * Where the engine host of a database listens: a Unix domain socket in a per-user directory that
 * only that user can enter, or a Windows named pipe. The path is derived from the database path, so
 * every process that opens the same database finds the same endpoint without configuration.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import type { Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngramError } from '../errors';

export interface EndpointOptions {
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** Base directory for sockets. @default os.tmpdir() */
  tmpDir?: string;
}

/** sun_path is 104 bytes on macOS and BSD (108 on Linux), including the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The endpoint for `dbPath`. On Unix this also creates the per-user socket directory with mode 0700
 * (tightening it if it exists with a wider mode), and refuses a directory owned by someone else,
 * which another user could have created in /tmp first to intercept our traffic.
 */
export function endpointFor(dbPath: string, options: EndpointOptions = {}): string {
  const platform = options.platform ?? process.platform;
  const identity = databaseIdentity(dbPath);
  if (platform === 'win32') {
    // Pipe names are global to the machine: include the user so two users never collide.
    return `\\\\.\\pipe\\engram-${hash(`${os.userInfo().username}\0${identity.toLowerCase()}`)}`;
  }
  const name = `${hash(identity)}.sock`;
  const uid = process.getuid?.() ?? 0;
  let dir = path.join(options.tmpDir ?? os.tmpdir(), `engram-${uid}`);
  // A long TMPDIR (macOS puts it under /var/folders/...) could overflow sun_path; /tmp never does.
  if (Buffer.byteLength(path.join(dir, name)) > MAX_SOCKET_PATH_BYTES) dir = `/tmp/engram-${uid}`;
  ensurePrivateDirectory(dir);
  return path.join(dir, name);
}

/**
 * Before connecting to an endpoint read from a lock file, check that it lives in a directory only
 * we control (on Windows the pipe's default security already limits writers to its creator).
 */
export function assertEndpointTrusted(endpoint: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  const dir = path.dirname(endpoint);
  const stat = lstatOrNull(dir);
  if (stat === null) throw unavailable(`endpoint directory ${dir} does not exist`);
  checkOwnership(dir, stat);
  if ((stat.mode & 0o077) !== 0) throw unavailable(`endpoint directory ${dir} is accessible to other users`);
}

/** Restricts a freshly bound socket file to its owner. The directory is 0700 already; belt and braces. */
export function restrictSocketFile(endpoint: string, platform: NodeJS.Platform = process.platform): void {
  if (platform !== 'win32') chmodSync(endpoint, 0o600);
}

/**
 * Two spellings of one database (relative, through a symlinked directory) must give one endpoint;
 * the file itself may not exist yet, so only its directory is resolved.
 */
function databaseIdentity(dbPath: string): string {
  const absolute = path.resolve(dbPath);
  let dir = path.dirname(absolute);
  try {
    dir = realpathSync.native(dir);
  } catch {
    // Directory not created yet: the resolved path is the best identity available.
  }
  return path.join(dir, path.basename(absolute));
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

function ensurePrivateDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw unavailable(`cannot create endpoint directory ${dir}: ${(error as Error).message}`);
  }
  const stat = lstatOrNull(dir);
  if (stat === null) throw unavailable(`endpoint directory ${dir} vanished`);
  checkOwnership(dir, stat);
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

function checkOwnership(dir: string, stat: { uid: number; isDirectory(): boolean }): void {
  if (!stat.isDirectory()) throw unavailable(`endpoint directory ${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw unavailable(`endpoint directory ${dir} belongs to uid ${stat.uid}, not to us (uid ${uid})`);
  }
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

function unavailable(message: string): EngramError {
  return new EngramError('UNAVAILABLE', message);
}
