import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where `--http` writes its URL and bearer token: beside the database, readable by the user only. */
export function tokenFilePath(dbPath: string): string {
  return path.join(path.dirname(dbPath), 'mcp-http.json');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Written whole or not at all: a fresh temporary file with mode 0600 (a mode given to
 * writeFileSync only applies to a new file), renamed into place, so a client that finds the file
 * never reads it half written (one read an empty file under load).
 */
export function writeTokenFile(file: string, contents: { url: string; token: string; pid: number }): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** Removes the token file when the server stops, unless another server has replaced it since. */
export function removeTokenFile(file: string, token: string): void {
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as { token?: unknown }).token === token)
      rmSync(file, { force: true });
  } catch {
    // Already gone or unreadable: nothing of ours to remove.
  }
}

/** Compares in constant time, so the token cannot be guessed a byte at a time from response times. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
