import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { linkedWorkspace } from '../capture/linkedWorkspace';
import { launchChromium } from '../vscode/support/browser';
import { CHROMIUM } from '../support/browser';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { openGraphPage } from './graphPage';
import type { HostStandIn } from './graphPage';

/** The graph webview over a workspace whose captured session edited src/dates.ts and was committed. */
describe('graph webview: the session layer in a real Chromium', () => {
  let browser: Browser;
  let page: Page;
  let host: HostStandIn;
  let engine: TestHost;
  let fix: string;
  let errors: string[] = [];

  before(async () => {
    const linked = await linkedWorkspace();
    fix = linked.fix;
    engine = await openTestHost({ dbPath: path.join(linked.root, '.engram', 'memory.db') });
    browser = await launchChromium(CHROMIUM);
    ({ page, host, errors } = await openGraphPage(browser, engine));
  });

  after(async () => {
    await browser?.close();
    await engine?.host.close();
  });

  it('is off at first; the sessions box asks for it and draws the session and its commit by the file', async () => {
    const plain = await host.until('the overview', async () => {
      const text = await page.locator('#status').innerText();
      return /entities, \d+ memories/.test(text) && text;
    });
    assert.doesNotMatch(plain, /sessions/);
    await page.locator('vscode-checkbox[data-filter="sessions"]').click();
    const status = await host.until('the session layer', async () => {
      const text = await page.locator('#status').innerText();
      return /1 sessions, 1 commits/.test(text) && text;
    });
    assert.match(status, /entities, \d+ memories, 1 sessions, 1 commits, \d+ links/);
    const asked = host.received.filter((m) => m.type === 'graph/data/get').pop();
    assert.equal(asked?.type === 'graph/data/get' && asked.query.sessions, true);
    const listed = await page.locator('#node-list li').allInnerTexts();
    assert.ok(
      listed.includes('session: Claude Code: isLeap is wrong for 1900. Use the Gregorian ru…'),
      listed.join(' | '),
    );
    assert.ok(listed.includes(`commit: ${fix.slice(0, 7)} Fix leap years for centuries`));
    assert.match(
      await page.locator('#legend').innerText(),
      /Captured sessions[\s\S]*commits that carry their edits/,
    );
    assert.deepEqual(errors, []);
  });
});
