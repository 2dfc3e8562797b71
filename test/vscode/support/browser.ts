import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Debian's Chromium, headless, with the flags that keep it quiet and working as root in CI. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      '--disable-dev-shm-usage',
    ],
  });
}
