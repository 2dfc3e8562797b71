import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { prepareDatabaseDirectory, workspaceDatabasePath } from '../../engine/paths';
import { grammarsDirectory } from '../code/codeWorkspace';
import { applyChanges } from '../drift/gitRepository';
import type { CommitChanges } from '../drift/gitRepository';
import { openTestHost, TestClock } from '../support/host';
import type { TestHost } from '../support/host';
import { tempDir } from '../support/temp';

function git(cwd: string, ...args: string[]): { status: number; stdout: string; stderr: string } {
  const run = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });
  return { status: run.status ?? -1, stdout: run.stdout.trim(), stderr: run.stderr.trim() };
}

/** One clone of the team's repository, with its own Engram database in `.engram/`. */
export class Clone {
  private open: TestHost | undefined;

  constructor(
    readonly root: string,
    readonly clock: TestClock,
  ) {}

  /** Runs git here; fails the test on an error unless `allowFailure` (a merge that conflicts). */
  git(...args: string[]): string {
    const run = git(this.root, ...args);
    if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${this.root}: ${run.stderr}`);
    return run.stdout;
  }

  tryGit(...args: string[]): { status: number; stdout: string; stderr: string } {
    return git(this.root, ...args);
  }

  /** The engine host on this clone's database (opened once: the open indexes the team files). */
  async host(): Promise<TestHost> {
    if (!this.open) {
      const dbPath = workspaceDatabasePath(this.root);
      prepareDatabaseDirectory(dbPath);
      this.open = await openTestHost({
        dbPath,
        clock: this.clock,
        code: { root: this.root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
      });
      const host = this.open.host;
      after(() => host.close());
    }
    return this.open;
  }

  /** Closes the host: the next `host()` opens the database again, as a new CLI process would. */
  async reopen(): Promise<TestHost> {
    await this.open?.host.close();
    this.open = undefined;
    return this.host();
  }

  commit(message: string, changes: CommitChanges = {}): string {
    applyChanges(this.root, changes);
    this.git('add', '-A');
    this.git('commit', '-q', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  read(file: string): string {
    return readFileSync(path.join(this.root, file), 'utf8');
  }
}

/** A bare repository and `names` clones of it, the first commit (`files`) pushed from the first. */
export function teamClones(files: Record<string, string>, names: readonly string[]): Clone[] {
  const dir = tempDir('engram-team-');
  const bare = path.join(dir, 'origin.git');
  git(dir, 'init', '-q', '--bare', '-b', 'main', bare);
  const clock = new TestClock(Date.parse('2026-01-15T10:00:00Z'));
  const clones = names.map((name) => {
    const root = path.join(dir, name);
    git(dir, 'clone', '-q', bare, root);
    appendFileSync(
      path.join(root, '.git', 'config'),
      `[user]\n\temail = ${name}@example.com\n\tname = ${name}\n[commit]\n\tgpgsign = false\n[pull]\n\trebase = false\n`,
    );
    return new Clone(root, clock);
  });
  const [first, ...rest] = clones;
  if (!first) throw new Error('teamClones needs at least one name');
  first.git('checkout', '-q', '-b', 'main');
  first.commit('initial', { write: files });
  first.git('push', '-q', '-u', 'origin', 'main');
  for (const clone of rest) clone.git('pull', '-q', 'origin', 'main');
  return clones;
}
