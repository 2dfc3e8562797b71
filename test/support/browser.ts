import { existsSync } from 'node:fs';
import { aptInstallCommand, runInstall } from './debianPackages';
import type { InstallCommand } from './debianPackages';

/** The Chromium the webview tests drive: Debian's, unless ENGRAM_CHROMIUM names another. */
export const CHROMIUM = process.env['ENGRAM_CHROMIUM'] ?? '/usr/bin/chromium';

/**
 * Makes sure the browser exists, installing it when it does not (idempotent: a present browser
 * runs nothing). Throws a one-line error when it cannot be installed or is still missing after.
 */
export function ensureBrowser(
  executable: string = CHROMIUM,
  installer: () => InstallCommand = () => aptInstallCommand(['chromium']),
): 'present' | 'installed' {
  if (existsSync(executable)) return 'present';
  const why = (error: unknown) => (error instanceof Error ? error.message : String(error));
  try {
    runInstall(installer());
  } catch (error) {
    throw new Error(`cannot install the browser for the webview tests (${executable}): ${why(error)}`);
  }
  if (!existsSync(executable))
    throw new Error(`the browser installer succeeded but ${executable} is still missing`);
  return 'installed';
}
