import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** Everything a VS Code test run produces (vsix, results, screenshots, user data), git-ignored. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const ARTIFACTS = path.join(REPO_ROOT, '.vscode-test');
export const VSIX_PATH = path.join(ARTIFACTS, 'engram.vsix');
export const IN_HOST_RUNNER = path.join(ARTIFACTS, 'inHost', 'runner.js');
export const SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');
/** The test chat model's extension (test/vscode/inHost/chatModelExtension), built by runVscodeTests.ts. */
export const CHAT_MODEL_EXTENSION = path.join(ARTIFACTS, 'chatModelExtension');

export function artifactDirectory(name: string): string {
  const dir = path.join(ARTIFACTS, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}
