// `npm test` runs this before the webview tests (scripts/runTests.mjs): installs Chromium when it
// is missing, so a fresh machine passes the README's test command. Exit 1 with one line if it cannot.
import { CHROMIUM, ensureBrowser } from './browser';

try {
  if (ensureBrowser() === 'installed') console.error(`[test-setup] installed ${CHROMIUM}`);
} catch (error) {
  console.error(`test setup: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
