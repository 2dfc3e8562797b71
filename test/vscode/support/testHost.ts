import { existsSync } from 'node:fs';
import { testHostPaths } from '../host/testHost';
import type { TestHostPaths } from '../host/testHost';

/** The installed test host (runVscodeTests.ts installs it before the tests start). */
export function installedTestHost(): TestHostPaths {
  const paths = testHostPaths();
  if (!existsSync(paths.marker))
    throw new Error('the VS Code test host is not installed: run `npm run test:vscode`, which installs it');
  return paths;
}
