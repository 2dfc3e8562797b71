import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  ENGRAM_GITIGNORE,
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

  it('keeps a workspace database out of git, and its team memories in', () => {
    const root = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: root });
    const db = path.join(root, '.engram', 'memory.db');
    prepareDatabaseDirectory(db);
    const ignored = (file: string) =>
      spawnSync('git', ['check-ignore', '-q', file], { cwd: root }).status === 0;
    for (const file of ['memory.db', 'memory.db.journal', 'memory.db.prev', '.gitignore'])
      assert.ok(ignored(`.engram/${file}`), `.engram/${file} is ignored`);
    assert.ok(!ignored('.engram/team/m0123456789abcdefghj.md'), 'a team memory file is not ignored');
    const elsewhere = path.join(root, 'data', 'x.db');
    prepareDatabaseDirectory(elsewhere);
    assert.ok(!existsSync(path.join(root, 'data', '.gitignore')));
  });

  it("replaces the .gitignore earlier versions wrote (it ignored team/), never a user's own", () => {
    const root = tempDir();
    const gitignore = path.join(root, '.engram', '.gitignore');
    mkdirSync(path.dirname(gitignore));
    writeFileSync(gitignore, '# Engram memory database, journal and snapshots: local, never committed.\n*\n');
    prepareDatabaseDirectory(path.join(root, '.engram', 'memory.db'));
    assert.equal(readFileSync(gitignore, 'utf8'), ENGRAM_GITIGNORE);
    writeFileSync(gitignore, '*\n');
    prepareDatabaseDirectory(path.join(root, '.engram', 'memory.db'));
    assert.equal(readFileSync(gitignore, 'utf8'), '*\n');
  });
});
