import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  findWorkspaceRoot,
  prepareDatabaseDirectory,
  resolveDatabasePath,
  userDatabasePath,
} from '../../engine/paths';
import { tempDir } from '../support/temp';

const base = { env: {}, home: '/home/ada', platform: 'linux' as NodeJS.Platform };

describe('database locations', () => {
  it('finds the workspace from a subfolder: .engram first, then .git, else the folder itself', () => {
    const root = tempDir();
    const deep = path.join(root, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    assert.equal(findWorkspaceRoot(deep), deep);
    mkdirSync(path.join(root, '.git'));
    assert.equal(findWorkspaceRoot(deep), root);
    mkdirSync(path.join(root, 'a', '.engram'));
    assert.equal(findWorkspaceRoot(deep), path.join(root, 'a'));
  });

  it('resolves --db, then ENGRAM_DB, then --user, then the workspace', () => {
    const cwd = tempDir();
    const choice = { ...base, cwd };
    assert.equal(
      resolveDatabasePath({ ...choice, db: 'x.db', env: { ENGRAM_DB: '/e.db' } }),
      path.join(cwd, 'x.db'),
    );
    assert.equal(resolveDatabasePath({ ...choice, env: { ENGRAM_DB: '/e.db' }, user: true }), '/e.db');
    assert.equal(resolveDatabasePath({ ...choice, user: true }), '/home/ada/.local/share/engram/user.db');
    assert.equal(resolveDatabasePath(choice), path.join(cwd, '.engram', 'memory.db'));
    assert.equal(
      resolveDatabasePath({ ...choice, workspace: 'ws' }),
      path.join(cwd, 'ws', '.engram', 'memory.db'),
    );
  });

  it('puts the user database in each platform data directory', () => {
    assert.equal(userDatabasePath({ XDG_DATA_HOME: '/xdg' }, '/h', 'linux'), '/xdg/engram/user.db');
    assert.equal(
      userDatabasePath({}, '/Users/ada', 'darwin'),
      '/Users/ada/Library/Application Support/Engram/user.db',
    );
    assert.equal(
      userDatabasePath({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada', 'win32'),
      path.join('C:\\Users\\ada\\AppData\\Roaming', 'Engram', 'user.db'),
    );
    assert.equal(userDatabasePath({ ENGRAM_USER_DB: '/custom/u.db' }, '/h', 'linux'), '/custom/u.db');
  });

  it('keeps a workspace database out of git', () => {
    const root = tempDir();
    const db = path.join(root, '.engram', 'memory.db');
    prepareDatabaseDirectory(db);
    assert.match(readFileSync(path.join(root, '.engram', '.gitignore'), 'utf8'), /^\*$/m);
    const elsewhere = path.join(root, 'data', 'x.db');
    prepareDatabaseDirectory(elsewhere);
    assert.ok(!existsSync(path.join(root, 'data', '.gitignore')));
  });
});
