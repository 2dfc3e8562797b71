// Runs installers for the test hosts, and installs Debian packages the test hosts need (Chromium for the webview tests, and what the VS Code
// test host builds against), as root or through passwordless sudo, the way CI runs. Shared by
// `npm test` (scripts/runTests.mjs, through test/support/browserSetup.ts) and `npm run test:vscode`.
import { spawnSync } from 'node:child_process';

/** A command that installs something; run with its output on stderr (progress, not a result). */
export interface InstallCommand {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function missingDebianPackages(names: readonly string[]): string[] {
  return names.filter(
    (name) =>
      spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' }).stdout !==
      'install ok installed',
  );
}

/** `apt-get update && apt-get install`, as root or through `sudo -n`; throws (one line) with neither. */
export function aptInstallCommand(names: readonly string[]): InstallCommand {
  const script = `apt-get update && apt-get install -y --no-install-recommends ${names.join(' ')}`;
  if (process.getuid?.() === 0)
    return {
      command: 'sh',
      args: ['-c', script],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    };
  if (spawnSync('sudo', ['-n', 'true']).status === 0)
    return { command: 'sudo', args: ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'sh', '-c', script] };
  throw new Error(
    `missing Debian packages ${names.join(', ')} and no root or passwordless sudo to install them`,
  );
}

/** Runs the installer; a failure is one line naming the command and how it ended. */
export function runInstall(install: InstallCommand): void {
  const shown = [install.command, ...install.args].join(' ');
  console.error(`[test-setup] ${shown}`);
  const result = spawnSync(install.command, install.args, {
    stdio: ['ignore', 2, 2],
    env: install.env ?? process.env,
    cwd: install.cwd,
  });
  if (result.error) throw new Error(`${shown} could not start: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${shown} failed (${result.signal ?? `exit code ${result.status}`})`);
}

/** Installs whichever of `names` are missing; nothing when all are there. */
export function ensureDebianPackages(names: readonly string[]): void {
  const missing = missingDebianPackages(names);
  if (missing.length > 0) runInstall(aptInstallCommand(missing));
}
