import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { GitRepository } from '../drift/gitRepository';
import { engram } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { claudeEditSession } from './editSession';

export const LINKED_SESSION = 'bbbb0000-1111-4a2b-9c3d-00000000000b';
export const OLD_DATES = 'export function isLeap(year: number): boolean {\n  return year % 4 === 0;\n}\n';
export const NEW_DATES =
  'export function isLeap(year: number): boolean {\n' +
  '  if (year % 400 === 0) return true;\n' +
  '  if (year % 100 === 0) return false;\n' +
  '  return year % 4 === 0;\n}\n';

/**
 * A git workspace whose Claude Code session (in a home made for the test) fixed isLeap on branch
 * fix/leap, stated a decision and left a failing build; the fix is committed; capture is enabled
 * and has run (so the session is linked to the commit). Returns the commit's hash.
 */
export async function linkedWorkspace(): Promise<{ root: string; env: Record<string, string>; fix: string }> {
  const home = tempDir('engram-home-', { afterTest: false });
  const repo = new GitRepository(undefined);
  repo.commit('Add dates', '2026-01-05T10:00:00Z', {
    write: { 'src/dates.ts': OLD_DATES, '.gitignore': '.engram/\nuser-home/\n' },
  });
  repo.git('checkout', '-q', '-b', 'fix/leap');
  const transcript = claudeEditSession(LINKED_SESSION, repo.root, 'fix/leap', Date.now() - 10 * 60_000, [
    { user: 'isLeap is wrong for 1900. Use the Gregorian rule, not the Julian one.' },
    {
      edit: 'src/dates.ts',
      old: '  return year % 4 === 0;',
      new: NEW_DATES.split('\n').slice(1, 4).join('\n'),
    },
    { bash: 'npm run build', exit: 2 },
  ]);
  const file = path.join(
    home,
    '.claude',
    'projects',
    claudeProjectName(repo.root),
    `${LINKED_SESSION}.jsonl`,
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, transcript);
  const fix = repo.commit('Fix leap years for centuries', new Date().toISOString(), {
    write: { 'src/dates.ts': NEW_DATES },
  });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  for (const args of [
    ['capture', 'enable'],
    ['capture', 'run'],
  ]) {
    const r = await engram(repo.root, args, env);
    if (r.code !== 0) throw new Error(`engram ${args.join(' ')}: ${r.err}`);
  }
  return { root: repo.root, env, fix };
}
