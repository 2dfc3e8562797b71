import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../vscode/support/browser';
import { CHROMIUM } from '../support/browser';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { graphParts, hoverNode } from './canvasSpots';
import { openGraphPage } from './graphPage';
import type { HostStandIn } from './graphPage';

/**
 * Issue 19, item 2: "the Graph goes blank for good". Every state transition a user makes with the
 * mouse, on a real engine's graph: start from a tool, click a memory node (the host opens it and
 * the data reloads while the pointer still rests on that node), back to the overview, find.
 */
describe('graph webview: state transitions never leave it blank', () => {
  let browser: Browser;
  let page: Page;
  let host: HostStandIn;
  let engine: TestHost;
  let errors: string[] = [];

  const status = () => page.locator('#status').innerText();
  const settled = async (what: string, pattern: RegExp): Promise<string> => {
    const text = await host.until(what, async () => {
      const s = await status();
      return pattern.test(s) && s;
    });
    await host.until(`the layout after ${what}`, () =>
      page.evaluate(() => document.body.dataset['layout'] === 'done'),
    );
    return text;
  };

  before(async () => {
    engine = await openTestHost();
    for (const content of [
      'We deploy the api with docker and run the tests with vitest',
      'The docker image for the api is built from node 20 alpine',
      'Caroline moved the vitest config to vitest.config.ts',
    ])
      await engine.call('remember', { content });
    browser = await launchChromium(CHROMIUM);
    ({ page, host, errors } = await openGraphPage(browser, engine));
    await settled('the overview', /entities, \d+ memories.*overview/);
  });

  after(async () => {
    await browser?.close();
  });

  it('tool -> memory clicked -> data reloads under the pointer -> Overview -> Find', async () => {
    const { canvas, tooltip } = graphParts(page);
    const tool = await hoverNode(page, canvas, tooltip, /^tool · docker/i);
    await page.mouse.click(tool.x, tool.y);
    await settled('the tool neighbourhood', /from docker, 1 hop/i);

    const memory = await hoverNode(page, canvas, tooltip, /click: open ·/);
    await page.mouse.click(memory.x, memory.y);
    await host.until('the memory to be opened', () =>
      host.received.some((m) => m.type === 'graph/memory/open'),
    );
    // A write reaches the panel (another process, or the memory document just opened) while the
    // pointer still rests on the node it clicked: the graph is replaced under a hovered node.
    await host.post({ type: 'graph/data/DidChange' });
    await settled('the reloaded neighbourhood', /^\d+ entities, \d+ memories.*from docker/i);

    await page.locator('#overview').click();
    const overview = await settled('the overview again', /^[1-9]\d* entities, \d+ memories.*overview/);
    const full = await engine.call('graphOverview', { limit: 400 });
    assert.equal(
      await page.evaluate(() => document.body.dataset['nodes']),
      String(full.nodes.length),
      overview,
    );

    await page.locator('#find input').fill('vitest');
    const found = await host.until('the find count', async () => {
      const s = await status();
      return /match “vitest”/.test(s) && s;
    });
    assert.match(found, /, [1-9]\d* match “vitest”/);
    assert.deepEqual(errors, []);
  });

  it('keeps working after: a node hovered, then Overview while it rests there', async () => {
    await page.locator('#find input').fill('');
    const { canvas, tooltip } = graphParts(page);
    const entity = await hoverNode(page, canvas, tooltip, /^tool · vitest/i);
    await page.mouse.click(entity.x, entity.y);
    await settled('the vitest neighbourhood', /from vitest, 1 hop/i);
    await hoverNode(page, canvas, tooltip, /click: open ·/);
    // The keyboard, not the mouse: the pointer never leaves the node.
    await page.locator('#overview').focus();
    await page.keyboard.press('Enter');
    await settled('the overview by keyboard', /^[1-9]\d* entities, \d+ memories.*overview/);
    assert.deepEqual(errors, []);
  });
});
