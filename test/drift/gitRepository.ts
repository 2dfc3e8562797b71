import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/temp';

export interface CommitChanges {
  write?: Record<string, string>;
  remove?: string[];
  rename?: Array<[string, string]>;
}

/** A real git repository in a temp directory whose commits carry the dates a test gives them. */
export class GitRepository {
  readonly root: string;

  constructor(root?: string) {
    this.root = root ?? tempDir('engram-drift-');
    if (!root) {
      this.git('init', '-q', '-b', 'main');
      // What `git config` would write, without three more processes per repository (~60 per run).
      appendFileSync(
        path.join(this.root, '.git', 'config'),
        '[user]\n\temail = dev@example.com\n\tname = Dev\n[commit]\n\tgpgsign = false\n',
      );
    }
  }

  git(...args: string[]): string {
    return this.gitAt(undefined, ...args);
  }

  gitAt(date: string | undefined, ...args: string[]): string {
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1' };
    if (date) Object.assign(env, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    const run = spawnSync('git', args, { cwd: this.root, env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
    return run.stdout.trim();
  }

  /** Applies the changes and commits them at `date`; returns the commit hash. */
  commit(message: string, date: string, changes: CommitChanges): string {
    applyChanges(this.root, changes);
    this.git('add', '-A');
    this.gitAt(date, 'commit', '-q', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }
}

export function applyChanges(root: string, changes: CommitChanges): void {
  for (const [from, to] of changes.rename ?? []) {
    mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
    renameSync(path.join(root, from), path.join(root, to));
  }
  for (const file of changes.remove ?? []) rmSync(path.join(root, file), { recursive: true });
  for (const [file, content] of Object.entries(changes.write ?? {})) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

/** A shallow clone (depth 1) of `source` in a temp directory. */
export function shallowClone(source: string): GitRepository {
  const target = path.join(tempDir('engram-shallow-'), 'clone');
  const run = spawnSync('git', ['clone', '-q', '--depth', '1', `file://${source}`, target], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`git clone failed: ${run.stderr}`);
  return new GitRepository(target);
}
