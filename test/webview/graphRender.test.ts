import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { WebviewToHost } from '../../webview/graph/protocol';
import { launchChromium } from '../vscode/support/browser';
import { CHROMIUM } from '../support/browser';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { openGraphPage } from './graphPage';
import type { HostStandIn } from './graphPage';

const ROOT = path.resolve(__dirname, '..', '..');
const SHOTS = path.join(ROOT, 'bench-out', 'screenshots');

/** Hostile memory content: markup, an event handler, a script, a Markdown link and a command URI. */
const HOSTILE = [
  'The parser in src/parse/hostile.ts breaks on <img src=x onerror="window.__pwned=1"> inputs',
  'Ask Caroline about <script>window.__pwned=2</script> in src/parse/hostile.ts',
  'See [the docs](command:engram.forgetMemory) and <a href="javascript:window.__pwned=3">here</a> for src/parse/hostile.ts',
];

describe('graph webview in a real Chromium, fed by a real engine', () => {
  let browser: Browser;
  let page: Page;
  let host: HostStandIn;
  let engine: TestHost;
  let dialogs: string[] = [];
  let errors: string[] = [];
  const memoryIds: string[] = [];

  before(async () => {
    engine = await openTestHost();
    for (const content of [
      ...HOSTILE,
      'Melanie maintains Kubernetes and the docker images for src/parse/hostile.ts',
      'We chose zod for validation in src/api/routes.ts',
    ]) {
      const r = (await engine.call('remember', { content })) as { memory: { id: string } };
      memoryIds.push(r.memory.id);
    }
    browser = await launchChromium(CHROMIUM);
    ({ page, host, dialogs, errors } = await openGraphPage(browser, engine));
  });

  after(async () => {
    await browser?.close();
  });

  it('draws the overview: counts in the status line, labels on the canvas, the layout settles', async () => {
    const status = await host.until('the graph status', async () => {
      const text = await page.locator('#status').innerText();
      return /entities, \d+ memories/.test(text) && text;
    });
    const overview = await engine.call('graphOverview', { limit: 400 });
    const entities = overview.nodes.filter((n) => n.kind === 'entity').length;
    assert.match(
      status,
      new RegExp(
        `^${entities} entities, ${overview.nodes.length - entities} memories, ${overview.edges.length} links`,
      ),
    );
    assert.equal(await page.evaluate(() => document.body.dataset['nodes']), String(overview.nodes.length));
    await host.until('the layout to finish', () =>
      page.evaluate(() => document.body.dataset['layout'] === 'done'),
    );
    // sigma draws labels with fillText on a 2D canvas: some pixels there mean labels were drawn.
    const inked = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('canvas.sigma-labels');
      const ctx = canvas?.getContext('2d');
      if (!canvas || !ctx) return -1;
      const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) n++;
      return n;
    });
    assert.ok(inked > 100, `label pixels: ${inked}`);
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(path.join(SHOTS, 'graph-overview.png'), await page.screenshot());
  });

  it('keeps hostile memory content inert: no element, no handler ran, no dialog, no CSP violation', async () => {
    const list = await page.locator('#node-list').evaluate((ul) => ul.textContent ?? '');
    assert.ok(list.includes('<img src=x'), `the markup is shown as text: ${list}`);
    assert.equal(
      await page.locator('body img, body a, #node-list *:not(li), #results *:not(button)').count(),
      0,
    );
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      [],
    );
  });

  it('lights up the nodes a recall touched and tells the host how many were in view', async () => {
    const recall = await engine.call('recall', { query: 'who maintains Kubernetes' });
    const ids = recall.hits.map((h) => h.memory.id);
    assert.ok(ids.length > 0);
    await host.post({
      type: 'graph/recall/DidRun',
      query: 'who maintains Kubernetes',
      memoryIds: ids,
      entityIds: [],
      client: 'mcp:test',
    });
    const lit = await host.until('the lit report', () =>
      host.received.find(
        (m): m is Extract<WebviewToHost, { type: 'graph/recall/lit' }> => m.type === 'graph/recall/lit',
      ),
    );
    const inView = (await engine.call('graphOverview', { limit: 400 })).nodes.filter(
      (n) => n.kind === 'memory' && ids.includes(n.memoryId),
    ).length;
    assert.deepEqual(lit, {
      type: 'graph/recall/lit',
      query: 'who maintains Kubernetes',
      lit: inView,
      touched: ids.length,
    });
    assert.ok(inView > 0, 'the recalled memory is in the overview');
    assert.match(await page.locator('#recall-text').innerText(), /who maintains Kubernetes.*mcp:test/);
    writeFileSync(path.join(SHOTS, 'graph-recall-lit.png'), await page.screenshot());
  });

  it('searches entities to start from and explores the chosen one by hops', async () => {
    await page.locator('#start input').fill('hostile');
    const button = page.locator('#results button', { hasText: 'src/parse/hostile.ts' });
    await host.until('a search result', async () => (await button.count()) > 0);
    await button.first().click();
    const status = await host.until('the neighbourhood', async () => {
      const text = await page.locator('#status').innerText();
      return text.includes('from src/parse/hostile.ts, 1 hop') && text;
    });
    const request = host.received.filter((m) => m.type === 'graph/data/get').pop();
    assert.ok(request && request.type === 'graph/data/get' && request.query.seeds?.length === 1);
    assert.match(status, /^\d+ entities, 4 memories/);
  });

  it('has a legend that says in words what each colour and dot size means, in the theme colours', async () => {
    const legend = await page.locator('#legend').innerText();
    for (const words of ['Big dots: what memories mention', 'files, folders', 'tools', 'people, other names'])
      assert.ok(legend.includes(words), `"${words}" in ${legend}`);
    for (const words of [
      'Small dots: memories, by layer',
      'semantic: facts and decisions',
      'codebase: from the code scan',
    ])
      assert.ok(legend.includes(words), `"${words}" in ${legend}`);
    const swatch = (text: string) =>
      page
        .locator('#legend .legend-item', { hasText: text })
        .first()
        .locator('.swatch')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    // Dark Modern's charts-green (graphPage THEME) for tools, charts-red for people.
    assert.equal(await swatch('tools'), 'rgb(137, 209, 133)');
    assert.equal(await swatch('people'), 'rgb(241, 76, 76)');
    // A theme change (VS Code swaps the body class and the variables) recolours the legend.
    await page.evaluate(() => {
      document.body.style.setProperty('--vscode-charts-green', '#388a34');
      document.body.className = 'vscode-light';
    });
    await host.until(
      'the legend in the new theme',
      async () => (await swatch('tools')) === 'rgb(56, 138, 52)',
    );
    await page.evaluate(() => {
      document.body.style.removeProperty('--vscode-charts-green');
      document.body.className = '';
    });
  });

  it('ignores malformed host messages', async () => {
    const before = await page.locator('#status').innerText();
    for (const bad of [
      null,
      'graph/data/DidChange',
      { type: 'graph/data/reply', id: 'x' },
      { type: 'graph/recall/DidRun', query: 1 },
    ])
      await host.post(bad);
    await page.waitForTimeout(200);
    assert.equal(await page.locator('#status').innerText(), before);
    assert.deepEqual(errors, []);
  });
});
