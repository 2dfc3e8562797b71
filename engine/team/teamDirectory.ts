import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ENGRAM_DIR } from '../paths';
import { isTeamId } from './teamFile';

/** Where a workspace's team memories live, relative to its root (committed, unlike the database). */
export const TEAM_DIR = `${ENGRAM_DIR}/team`;

/** A team file as read from disk: its team id (the name), text and the hash of its bytes. */
export interface TeamFileOnDisk {
  teamId: string;
  /** Relative to the workspace root, with `/`. */
  relative: string;
  text: string;
  hash: string;
}

export function teamFileRelative(teamId: string): string {
  return `${TEAM_DIR}/${teamId}.md`;
}

export function fileHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Every `<id>.md` of the team directory (none when it does not exist); other names are not team files. */
export function readTeamDirectory(root: string): TeamFileOnDisk[] {
  let names: string[];
  try {
    names = readdirSync(path.join(root, TEAM_DIR));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: TeamFileOnDisk[] = [];
  for (const name of names.sort()) {
    const teamId = name.endsWith('.md') ? name.slice(0, -3) : '';
    if (!isTeamId(teamId)) continue;
    const relative = teamFileRelative(teamId);
    let text: string;
    try {
      text = readFileSync(path.join(root, relative), 'utf8');
    } catch (error) {
      // Removed between listing and reading (a checkout in progress): the next index sees it gone.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    files.push({ teamId, relative, text, hash: fileHash(text) });
  }
  return files;
}

/** Writes a team file whole (temp file, then rename): a reader never sees half of it. */
export function writeTeamFile(root: string, teamId: string, text: string): string {
  const relative = teamFileRelative(teamId);
  const target = path.join(root, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, target);
  return relative;
}
