import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engram } from '../engram';
import type { OpenEngramOptions } from '../engram';
import type { Logger } from '../host';
import { resolveDatabasePath, resolveWorkspaceRoot } from '../paths';
import type { DatabaseChoice } from '../paths';
import type { Profile } from './profiles';

export interface BridgeSettings {
  profile: Profile;
  /** How to find the database: `--db`, `ENGRAM_DB`, `--user`, `--workspace`, else the client's roots, else the cwd. */
  choice: DatabaseChoice;
  /** Everything Engram.open needs but the database path. */
  engine: Omit<OpenEngramOptions, 'dbPath' | 'code'>;
  /** The tree-sitter grammars and queries (dist/grammars beside the bundle), for the code tools when this process hosts. */
  grammarsDirectory: string;
  logger: Logger;
  /** Memories only, no workspace to scan or team files to index (the team server). @default false */
  memoriesOnly?: boolean;
}

/**
 * What every connection of one bridge process shares: the profile and one engine, opened on the
 * first call that needs it (a client's roots are known only after it initialised) and kept until
 * the process ends.
 */
export class BridgeRuntime {
  private opening: Promise<Engram> | undefined;
  private dbPath: string | undefined;

  constructor(readonly settings: BridgeSettings) {}

  get profile(): Profile {
    return this.settings.profile;
  }

  get database(): string {
    return this.dbPath ?? '(not open yet)';
  }

  get role(): string {
    return this.opened?.role ?? 'none';
  }

  private opened: Engram | undefined;

  /** The engine; `roots` is asked only when nothing on the command line or in the environment chose a database. */
  engine(roots: () => Promise<string[]>): Promise<Engram> {
    this.opening ??= this.open(roots).then(
      (link) => (this.opened = link),
      (error: unknown) => {
        // A failed open (a host that could not be reached) is retried by the next call.
        this.opening = undefined;
        throw error;
      },
    );
    return this.opening;
  }

  private async open(roots: () => Promise<string[]>): Promise<Engram> {
    const choice = { ...this.settings.choice };
    const chosen = choice.db || choice.env['ENGRAM_DB'] || choice.user || choice.workspace;
    if (!chosen) {
      const root = (await roots().catch(() => [])).find((uri) => uri.startsWith('file://'));
      if (root) choice.workspace = fileURLToPath(root);
    }
    this.dbPath = path.resolve(resolveDatabasePath(choice));
    this.settings.logger.info(`engram-mcp: database ${this.dbPath}`);
    // The workspace the code and drift tools work on when this process hosts, as the CLI chooses it.
    const root = this.settings.memoriesOnly ? undefined : resolveWorkspaceRoot(choice);
    return Engram.open({
      ...this.settings.engine,
      dbPath: this.dbPath,
      ...(root ? { code: { root, grammarsDirectory: this.settings.grammarsDirectory } } : {}),
    });
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    if (opening) await (await opening.catch(() => undefined))?.close();
  }
}
