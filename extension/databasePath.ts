import os from 'node:os';
import path from 'node:path';
import { userDatabasePath, workspaceDatabasePath } from '../engine/index';
import type { EngramSettings } from './settings';

/**
 * Where the database is, from the setting: empty means the workspace's `.engram/memory.db` (what
 * the CLI and the MCP bridge find too), `user` the user database, anything else a file path.
 */
export function databasePath(settings: EngramSettings, root: string | undefined): string {
  const location = settings.databaseLocation;
  const env = process.env;
  if (location === 'user' || (location === '' && root === undefined))
    return userDatabasePath(env, os.homedir(), process.platform);
  if (location === '') return workspaceDatabasePath(root as string);
  const expanded = location.replace(/^~(?=$|[\\/])/, os.homedir());
  return path.resolve(root ?? os.homedir(), expanded);
}
