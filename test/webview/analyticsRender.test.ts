import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { LifecycleHealth } from '../../engine/api/healthMethods';
import { ANALYTICS_BODY, ANALYTICS_CSS } from '../../webview/analytics/page';
import { EMPTY_TEXT, formatTime } from '../../webview/analytics/healthSection';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { launchBrowser, ORIGIN, pageHtml } from './timelinePage';

const ROOT = path.resolve(__dirname, '..', '..');
const SHOTS = path.join(ROOT, '.vscode-test', 'screenshots');
const DAY = 24 * 60 * 60 * 1000;

type Sent = { type: string; id: number };
type Reply = (request: Sent) => unknown;

/** The Analytics page as the panel serves it (built bundle, CSP, dark theme); `reply` plays the host. */
async function openAnalytics(browser: Browser, reply: Reply): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 760, height: 720 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const script = readFileSync(path.join(ROOT, 'dist', 'webview', 'analytics.js'));
  await page.route(`${ORIGIN}/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === 'index.html')
      return route.fulfill({
        contentType: 'text/html',
        body: pageHtml(ANALYTICS_CSS, ANALYTICS_BODY, 'analytics.js'),
      });
    if (name === 'analytics.js') return route.fulfill({ contentType: 'text/javascript', body: script });
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}/index.html`);
  let answered = 0;
  // Plays the host until the page has rendered a reply: every request gets one.
  for (const end = Date.now() + 10_000; Date.now() < end;) {
    const sent = await page.evaluate(() => (window as unknown as { __sent: Sent[] }).__sent);
    for (const request of sent.slice(answered))
      await page.evaluate((m) => window.postMessage(m, '*'), reply(request) as object);
    answered = sent.length;
    if (await page.evaluate(() => document.body.dataset['shown'] !== undefined)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { page, errors };
}

const answer =
  (data: LifecycleHealth): Reply =>
  (m) => ({ type: 'analytics/health/reply', id: m.id, ok: true, data });

/**
 * A store that lived half a year on a simulated clock: memories of every age, some read, three
 * lifecycle runs. Reads by id, not recalls: which of near-equal memories a recall ranks first can
 * change with their random ids, and with it what gets archived.
 */
async function livedStore(): Promise<TestHost> {
  const t = await openTestHost();
  const write = async (content: string, agent: string | null) =>
    (
      (await t.call('remember', { content, layer: 'episodic', actor: agent ? { agent } : {} })) as {
        memory: { id: string };
      }
    ).memory.id;
  for (const [i, gapDays] of [40, 60, 45, 25, 10, 7, 4, 2].entries()) {
    for (let j = 0; j < 3; j++) {
      const id = await write(`Episode ${i}.${j}: the billing job ${j} ran on host ${i}.`, j ? 'bot' : null);
      if (i % 2 === 0 && j < 2) await t.call('get', { id });
    }
    if (i === 3 || i === 7) await t.call('lifecycle', { dryRun: false });
    t.clock.advance(gapDays * DAY);
  }
  await t.call('remember', { content: 'Billing retries invoices three times.', layer: 'semantic' });
  await t.call('lifecycle', { dryRun: false });
  return t;
}

describe('analytics webview: Lifecycle/Health in a browser', () => {
  let browser: Browser;
  let lived: TestHost;
  let fresh: TestHost;

  before(async () => {
    [lived, fresh] = await Promise.all([livedStore(), openTestHost()]);
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await Promise.all([lived?.host.close(), fresh?.host.close()]);
  });

  it('shows the retention curve, counts and runs of a store that lived, in theme colours', async () => {
    const data: LifecycleHealth = await lived.call('lifecycleHealth', {});
    const { page, errors } = await openAnalytics(browser, answer(data));
    assert.deepEqual(errors, []);
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      [],
    );
    const chart = page.locator('svg#retention-chart');
    assert.equal(await chart.getAttribute('role'), 'img');
    assert.match(
      (await chart.getAttribute('aria-label')) ?? '',
      /^Retention curve: mean retention by days idle \(1-7 d \d+%, 7-14 d \d+%, .*; archived below 15%$/,
    );
    const filled = data.retention.bins.filter((b) => b.memories > 0);
    assert.ok(filled.length >= 3, JSON.stringify(data.retention));
    assert.equal(await chart.locator('circle').count(), filled.length);
    assert.match(
      (await chart.locator('circle').first().locator('title').textContent()) ?? '',
      /memories idle .* mean retention \d+%/,
    );
    // An empty bin breaks the line (60-90 days here): one polyline per run of filled bins.
    const runsOfFilled = data.retention.bins.filter(
      (b, i, all) => b.memories > 0 && (i === 0 || all[i - 1]!.memories === 0),
    ).length;
    assert.equal(runsOfFilled, 2, JSON.stringify(data.retention.bins));
    assert.equal(await chart.locator('.curve').count(), runsOfFilled);
    const stroke = await chart
      .locator('.curve')
      .first()
      .evaluate((e) => getComputedStyle(e).stroke);
    assert.equal(stroke, 'rgb(55, 148, 255)', "the theme's --vscode-charts-blue");
    const tiles = await page.locator('dl.tiles').innerText();
    assert.match(tiles, new RegExp(`Archived\\s+${data.archived.total}`));
    assert.match(
      tiles,
      new RegExp(`${data.quality.recalled} of ${data.quality.active} active memories ever recalled`),
    );
    assert.match(tiles, /Duplicates pending\s+–\s*counted once the embedding model has loaded/);
    assert.equal(data.runs.length, 2, 'of three runs; one that changes nothing records no event');
    assert.equal(await page.locator('table tr').count(), data.runs.length + 1);
    assert.equal(await page.locator('#status').innerText(), `${data.quality.active} active memories`);
    await page.screenshot({ path: path.join(SHOTS, 'analytics-lifecycle-dark.png'), fullPage: true });
  });

  it('tells a new user what will appear, with no chart and no table', async () => {
    const data: LifecycleHealth = await fresh.call('lifecycleHealth', {});
    const { page, errors } = await openAnalytics(browser, answer(data));
    assert.deepEqual(errors, []);
    assert.equal(await page.locator('#health .empty').innerText(), EMPTY_TEXT);
    assert.equal(await page.locator('svg, table').count(), 0);
    assert.equal(await page.locator('#status').innerText(), 'No memories yet');
    await page.screenshot({ path: path.join(SHOTS, 'analytics-lifecycle-empty.png'), fullPage: true });
  });

  it('shows a counted duplicates figure with its time, and says when memories changed since', async () => {
    const data: LifecycleHealth = await lived.call('lifecycleHealth', {});
    // The store has no embedding model; the figure a loaded one would give, as the engine shapes it.
    const countedAt = data.now - 60_000;
    const duplicates = { pairs: 3, countedAt, stale: true };
    const { page } = await openAnalytics(browser, answer({ ...data, duplicates }));
    const tile = page.locator('.tile', { hasText: 'Duplicates pending' });
    assert.equal(
      await tile.locator('dd').innerText(),
      `3\ncounted ${formatTime(countedAt)}; memories changed since`,
    );
  });

  it('asks the host to run Consolidate Now from its button, and nothing more', async () => {
    const data: LifecycleHealth = await fresh.call('lifecycleHealth', {});
    const { page, errors } = await openAnalytics(browser, answer(data));
    await page.getByRole('button', { name: 'Consolidate Now…' }).click();
    await page.waitForFunction(() => (window as unknown as { __sent: Sent[] }).__sent.length === 2);
    const sent = await page.evaluate(() => (window as unknown as { __sent: Sent[] }).__sent);
    assert.deepEqual(sent[1], { type: 'analytics/consolidation/run' });
    assert.deepEqual(errors, []);
  });

  it('shows a failed load as one line, and loads again when the host says the data changed', async () => {
    const { page } = await openAnalytics(browser, (m) => ({
      type: 'analytics/health/reply',
      id: m.id,
      ok: false,
      error: 'database is closed',
    }));
    assert.equal(
      await page.locator('#status').innerText(),
      'Could not load the lifecycle data: database is closed',
    );
    await page.evaluate(() => window.postMessage({ type: 'analytics/health/DidChange' }, '*'));
    await page.waitForFunction(() => (window as unknown as { __sent: Sent[] }).__sent.length === 2);
    const sent = await page.evaluate(() => (window as unknown as { __sent: Sent[] }).__sent);
    assert.deepEqual(
      sent.map((m) => [m.type, m.id]),
      [
        ['analytics/health/get', 1],
        ['analytics/health/get', 2],
      ],
    );
  });
});
