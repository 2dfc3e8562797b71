import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILES: Record<string, string> = {
  'package.json': JSON.stringify(
    { name: 'fixture-app', scripts: { build: 'tsc', test: 'node --test' } },
    null,
    2,
  ),
  'src/auth/login.ts': [
    "import { hashPassword } from '../crypto/hash';",
    '',
    '/** Logs a user in; sessions last 12 hours (decided with the security team). */',
    'export function login(user: string, password: string): string {',
    '  return `${user}:${hashPassword(password)}`;',
    '}',
    '',
  ].join('\n'),
  'src/crypto/hash.ts': [
    "import { createHash } from 'node:crypto';",
    '',
    'export function hashPassword(password: string): string {',
    "  return createHash('sha256').update(password).digest('hex');",
    '}',
    '',
  ].join('\n'),
  'src/server.ts': [
    "import { login } from './auth/login';",
    '',
    "export const routes = { '/login': login };",
    '',
  ].join('\n'),
  'README.md': '# Fixture app\n\nA small TypeScript service used by the Engram VS Code tests.\n',
};

/** A small real git repository for the extension to scan and remember things about. */
export function createWorkspaceFixture(prefix: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), `engram-${prefix}-`));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Engram Test', '-c', 'user.email=test@engram.invalid', 'add', '.');
  git('-c', 'user.name=Engram Test', '-c', 'user.email=test@engram.invalid', 'commit', '-q', '-m', 'fixture');
  return root;
}

/** The MCP memory server's file format, for the import test. */
export const MCP_MEMORY_JSONL = [
  JSON.stringify({
    type: 'entity',
    name: 'Release',
    entityType: 'process',
    observations: ['Releases are cut from the release branch every Tuesday'],
  }),
  JSON.stringify({
    type: 'entity',
    name: 'CI',
    entityType: 'tool',
    observations: ['CI runs on every pull request'],
  }),
  JSON.stringify({ type: 'relation', from: 'Release', to: 'CI', relationType: 'requires' }),
].join('\n');
