import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';

/**
 * The git directory of a repository under the clones folder: a clone named `<name>` or
 * `<owner>__<name>` (its `.git`, or the folder itself when bare), or a mirror as the fetch tool
 * leaves them, `<owner>+<name>/repo`.
 */
export function gitDirOf(clones: string, repo: string): string | undefined {
  const [owner, name] = repo.split('/');
  for (const candidate of [name ?? '', `${owner}__${name}`, `${owner}+${name}/repo`]) {
    const dir = path.join(clones, candidate);
    if (existsSync(path.join(dir, '.git'))) return path.join(dir, '.git');
    if (existsSync(path.join(dir, 'HEAD')) && existsSync(path.join(dir, 'objects'))) return dir;
  }
  return undefined;
}

/**
 * Puts `tree` at `commit` with `git archive` (no work tree, nothing written into the git
 * directory): emptied first so files deleted between commits go. The scanner then finds unchanged
 * files by their content hash, as after a checkout.
 */
export function extractTree(gitDir: string, tree: string, commit: string): void {
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  const archive = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', commit], {
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', tree], { input: archive, maxBuffer: 1 << 20 });
}

/** The files git tracks at `commit` (what the baselines index). */
export function trackedFiles(gitDir: string, commit: string): string[] {
  return execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', '--name-only', commit], {
    maxBuffer: 1 << 28,
  })
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '');
}

/**
 * A host over a new database in `work` whose workspace is `tree`, as the localisation benches
 * scan it: parsing inline, no embedding model (figures do not depend on a download).
 */
export function openScanHost(work: string, tree: string): Promise<EngineDispatcher> {
  return EngineDispatcher.open({
    dbPath: path.join(work, 'memory.db'),
    sqlWasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock: Date.now,
    embedding: null,
    // No snapshot mid-run: a run writes far past the 16 MiB journal limit, and a snapshot still in
    // flight when the host closes fails in Journal.compact with EBADF (seen at the end of xarray).
    snapshot: { idleMs: 600_000, maxJournalBytes: 1 << 30 },
    code: { root: tree, grammarsDirectory: path.resolve(__dirname, '../../grammars'), runner: 'inline' },
  });
}
