import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where databases live. Every entry point (extension, MCP bridge, CLI) resolves them with these
 * functions, so all of them find the same files without configuration. The caller passes the
 * environment and home directory in: the engine never reads them itself.
 */
export const ENGRAM_DIR = '.engram';
export const DATABASE_FILE = 'memory.db';

/**
 * The workspace a directory belongs to: the nearest ancestor holding `.engram/`, else the nearest
 * holding `.git`, else the directory itself.
 */
export function findWorkspaceRoot(start: string): string {
  const from = path.resolve(start);
  for (const marker of [ENGRAM_DIR, '.git']) {
    for (let dir = from; ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, marker))) return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  return from;
}

export function workspaceDatabasePath(workspaceRoot: string): string {
  return path.join(workspaceRoot, ENGRAM_DIR, DATABASE_FILE);
}

/** The per-user database for memories that cross projects (preferences, global procedures). */
export function userDatabasePath(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string {
  if (env['ENGRAM_USER_DB']) return path.resolve(env['ENGRAM_USER_DB']);
  return path.join(userDataDirectory(env, home, platform), 'user.db');
}

/** The platform's per-user data directory for Engram (user database, downloaded models). */
export function userDataDirectory(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string {
  return platform === 'win32'
    ? path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'Engram')
    : platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support', 'Engram')
      : path.join(env['XDG_DATA_HOME'] || path.join(home, '.local', 'share'), 'engram');
}

export interface DatabaseChoice {
  /** An explicit file (`--db`). */
  db?: string;
  /** An explicit workspace directory (`--workspace`). */
  workspace?: string;
  /** The user-level database instead of the workspace one (`--user`). */
  user?: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
}

/** `--db` wins, then `ENGRAM_DB`, then `--user`, then the workspace of `--workspace` or the cwd. */
export function resolveDatabasePath(choice: DatabaseChoice): string {
  if (choice.db) return path.resolve(choice.cwd, choice.db);
  if (choice.env['ENGRAM_DB']) return path.resolve(choice.cwd, choice.env['ENGRAM_DB']);
  if (choice.user) return userDatabasePath(choice.env, choice.home, choice.platform);
  const root = choice.workspace ? path.resolve(choice.cwd, choice.workspace) : findWorkspaceRoot(choice.cwd);
  return workspaceDatabasePath(root);
}

/** The workspace whose code is scanned: none for the user database, else `--workspace` or the cwd's. */
export function resolveWorkspaceRoot(choice: DatabaseChoice): string | undefined {
  if (choice.user) return undefined;
  return choice.workspace ? path.resolve(choice.cwd, choice.workspace) : findWorkspaceRoot(choice.cwd);
}

/** What earlier versions wrote: it ignored `team/` too, so it is replaced (a user's own file is not). */
const OLD_GITIGNORE = '# Engram memory database, journal and snapshots: local, never committed.\n*\n';

/**
 * `.engram/.gitignore`: everything in `.engram/` stays out of git (the database, journal,
 * snapshots, this file) except `team/`, the team memories committed and reviewed like code
 * (docs/team.md). `/*` matches only the entries of `.engram/` itself, so nothing inside `team/`.
 */
export const ENGRAM_GITIGNORE =
  '# Engram: the memory database, journal and snapshots are local, never committed.\n' +
  '# team/ holds the team memories, committed and reviewed like code (docs/team.md).\n' +
  '/*\n!/team/\n';

/**
 * Creates the database's directory; inside a workspace's `.engram/` also a `.gitignore` so the
 * database, journal and snapshots never end up in git.
 */
export function prepareDatabaseDirectory(dbPath: string): void {
  const dir = path.dirname(dbPath);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const gitignore = path.join(dir, '.gitignore');
  if (path.basename(dir) !== ENGRAM_DIR) return;
  if (!existsSync(gitignore) || readFileSync(gitignore, 'utf8') === OLD_GITIGNORE)
    writeFileSync(gitignore, ENGRAM_GITIGNORE);
}
