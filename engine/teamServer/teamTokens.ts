import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EngramError, invalidInput } from '../errors';

export const SCOPES = ['memory:read', 'memory:write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** One token as the file keeps it: never the token itself, only its SHA-256. */
export interface TeamToken {
  id: string;
  user: string;
  scopes: Scope[];
  /**
   * The team whose memories the token reads and writes (teamStores.ts). Absent on tokens made
   * before teams existed: they belong to the default team, the server's own database.
   */
  team?: string;
  /** `sha256:<hex>` of the whole token string. */
  hash: string;
  created: string;
  /** Set by `engram team token revoke`; a revoked token is refused like an unknown one. */
  revoked?: string;
}

interface TokensFile {
  version: 1;
  tokens: TeamToken[];
}

/** Where the team server and `engram team token` keep tokens by default: beside the database. */
export function defaultTokensFile(dbPath: string): string {
  return path.join(path.dirname(dbPath), 'team-tokens.json');
}

/**
 * A token's hash. The secret is 256 random bits, so one SHA-256 is enough: a slow password hash
 * protects guessable secrets, and these cannot be guessed.
 */
export function hashToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

export function parseScopes(value: string): Scope[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0) throw invalidInput(`scopes must be some of ${SCOPES.join(', ')}; got "${value}"`);
  for (const scope of scopes)
    if (!(SCOPES as readonly string[]).includes(scope))
      throw invalidInput(`unknown scope "${scope}": expected ${SCOPES.join(', ')}`);
  return [...new Set(scopes)] as Scope[];
}

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** The team of tokens that name none: the server's own database or store. */
export const DEFAULT_TEAM = 'default';

/** Lower case, digits and _ only: a team name becomes a directory and a PostgreSQL schema name. */
const TEAM_NAME = /^[a-z0-9][a-z0-9_]{0,39}$/;

export function isTeamName(value: string): boolean {
  return TEAM_NAME.test(value);
}

export function parseTeam(value: string): string {
  if (!isTeamName(value))
    throw invalidInput(`team must be 1-40 lower-case letters, digits or _ (not first); got "${value}"`);
  return value;
}

/** The team a token belongs to. */
export function teamOf(token: Pick<TeamToken, 'team'>): string {
  return token.team ?? DEFAULT_TEAM;
}

export function readTokens(file: string): TeamToken[] {
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EngramError('STORE', `${file} is not a tokens file: ${(error as Error).message}`);
  }
  const tokens = (parsed as Partial<TokensFile> | null)?.tokens;
  if (!Array.isArray(tokens))
    throw new EngramError('STORE', `${file} is not a tokens file: no "tokens" list`);
  return tokens;
}

/** Written whole (temp file, mode 0600, rename): a server reading it never sees half a file. */
function writeTokens(file: string, tokens: TeamToken[]): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  const contents: TokensFile = { version: 1, tokens };
  writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** Adds a token for `user`; the token is returned once and never stored. */
export function addToken(
  file: string,
  user: string,
  scopes: Scope[],
  now: number,
  team: string = DEFAULT_TEAM,
): { token: string; entry: TeamToken } {
  if (!USER_NAME.test(user))
    throw invalidInput(`user must be 1-64 letters, digits, or . _ @ - (not first); got "${user}"`);
  const id = `tok_${randomBytes(6).toString('hex')}`;
  const token = `engram_${randomBytes(32).toString('base64url')}`;
  const entry: TeamToken = {
    id,
    user,
    scopes,
    team: parseTeam(team),
    hash: hashToken(token),
    created: new Date(now).toISOString(),
  };
  writeTokens(file, [...readTokens(file), entry]);
  return { token, entry };
}

export function revokeToken(file: string, id: string, now: number): TeamToken {
  const tokens = readTokens(file);
  const entry = tokens.find((t) => t.id === id);
  if (!entry) throw new EngramError('NOT_FOUND', `no token "${id}" in ${file}`);
  entry.revoked ??= new Date(now).toISOString();
  writeTokens(file, tokens);
  return entry;
}

/**
 * The server's view of the tokens file, read again when the file changes, so a token added or
 * revoked with `engram team token` counts from the next request, without a restart.
 */
export class TokenTable {
  private byHash = new Map<string, TeamToken>();
  private seen = '';

  /** Throws when the file exists and is not a tokens file: a server must not start on it. */
  constructor(private readonly file: string) {
    this.reload(readTokens);
  }

  /** The live token this bearer string is, or undefined (unknown, revoked). */
  find(bearer: string): TeamToken | undefined {
    this.reload();
    const entry = this.byHash.get(hashToken(bearer));
    return entry && !entry.revoked ? entry : undefined;
  }

  private reload(read: (file: string) => TeamToken[] = readSafely): void {
    let stamp: string;
    try {
      const stat = statSync(this.file);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp === this.seen) return;
    const tokens = stamp === 'missing' ? [] : read(this.file);
    // A file that cannot be read keeps the table it replaced (and is read again next time).
    if (tokens === UNREADABLE) return;
    this.byHash = new Map(tokens.map((t) => [t.hash, t]));
    this.seen = stamp;
  }
}

const UNREADABLE: TeamToken[] = [];

function readSafely(file: string): TeamToken[] {
  try {
    return readTokens(file);
  } catch {
    return UNREADABLE;
  }
}
