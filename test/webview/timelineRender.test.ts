import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TimelineData } from '../../webview/timeline/protocol';
import type { TestHost } from '../support/host';
import { launchBrowser, openTimelinePage } from './timelinePage';
import type { TimelinePage } from './timelinePage';
import { HOSTILE, SAMPLE_SESSION, sampleStore } from './timelineSample';

const SHOTS = path.resolve(__dirname, '..', '..', '.vscode-test', 'screenshots');

/** The timeline page in headless Chromium, fed from a real store as the panel feeds it. */
describe('timeline webview in a browser', () => {
  let browser: Browser;
  let test: TestHost;
  let ids: Record<string, string>;
  let data: TimelineData;
  let view: TimelinePage;

  before(async () => {
    ({ test, ids } = await sampleStore());
    data = await test.call('timeline');
    browser = await launchBrowser();
    view = await openTimelinePage(browser, () => data);
    await view.until('the first draw', async () =>
      /memories/.test(await view.page.locator('#status').innerText()),
    );
  });

  after(async () => {
    await browser?.close();
    await test?.host.close();
  });

  it('draws every memory with the counts of drift events, scans and sessions, under the strict CSP', async () => {
    const status = await view.page.locator('#status').innerText();
    assert.equal(
      status,
      `${data.memories.length} of ${data.memories.length} memories, 1 drift events, 2 scans, 1 sessions`,
    );
    const bars = Number(await view.page.locator('#timeline').getAttribute('data-bars'));
    assert.equal(bars, data.memories.length, 'fitted, every bar is in view');
    assert.deepEqual(
      await view.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      [],
    );
    assert.deepEqual(view.errors, []);
    // The toolbar is made of @vscode-elements components that rendered (shadow roots exist).
    assert.equal(
      await view.page.evaluate(() => !!document.querySelector('vscode-textfield')?.shadowRoot),
      true,
    );
    assert.equal((await view.page.locator('vscode-single-select#kind vscode-option').count()) > 2, true);
  });

  it('renders untrusted memory text, agents and tags inert: no element, no handler, no link', async () => {
    await view.post({ type: 'timeline/memory/DidReveal', memoryId: ids['hostile'] });
    const sent = await view.until('the selection report', async () =>
      (await view.sent()).find(
        (m) => m.type === 'timeline/selection/changed' && m.memoryId === ids['hostile'],
      ),
    );
    assert.ok(sent);
    const detail = view.page.locator('#detail .content');
    assert.equal(await detail.innerText(), HOSTILE, 'the markup is shown as text');
    assert.equal(await view.page.locator('img').count(), 0);
    assert.equal(await view.page.locator('a').count(), 0);
    assert.equal(await view.page.locator('b, i').count(), 0, 'tag and agent names are text too');
    assert.match(await view.page.locator('#detail').innerText(), /<i>agent<\/i>/);
    // The menus list the hostile agent and tag as option text.
    assert.equal(await view.page.locator('vscode-option', { hasText: '<b>tag</b>' }).count(), 1);
    // Hovering the bar shows the text in the tooltip, as text.
    const tip = await hoverUntilTooltip(view, HOSTILE.slice(0, 20));
    assert.match(tip, /onerror/);
    assert.deepEqual(view.dialogs, []);
    mkdirSync(SHOTS, { recursive: true });
    await view.page.screenshot({ path: path.join(SHOTS, 'timeline-dark.png') });
  });

  it('opens a filter menu without breaking the CSP', async () => {
    await view.page.locator('vscode-single-select#kind').click();
    await view.page.locator('vscode-single-select#kind').press('Escape');
    assert.deepEqual(
      await view.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      [],
    );
  });

  it('filters with the toolbar controls and reports the count', async () => {
    await view.page.locator('#search input').fill('deploys');
    await view.until('the text filter', async () =>
      /^2 of /.test(await view.page.locator('#status').innerText()),
    );
    await view.page.locator('#search input').fill('');
    await view.page.locator('vscode-checkbox[data-layer="semantic"]').click();
    const semantic = data.memories.filter((m) => m.layer === 'semantic').length;
    await view.until('the layer filter', async () =>
      (await view.page.locator('#status').innerText()).startsWith(`${data.memories.length - semantic} of `),
    );
    await view.page.locator('vscode-checkbox[data-layer="semantic"]').click();
    const state = await view.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
    assert.deepEqual((state as { filter: { hiddenLayers: string[] } }).filter.hiddenLayers, []);
  });

  it('a shift-drag brushes a range and lists the memories that began in it', async () => {
    const box = await view.page.locator('#timeline').boundingBox();
    assert.ok(box);
    await view.page.keyboard.down('Shift');
    await view.page.mouse.move(box.x + 2, box.y + 200);
    await view.page.mouse.down();
    await view.page.mouse.move(box.x + box.width / 2, box.y + 200, { steps: 5 });
    await view.page.mouse.up();
    await view.page.keyboard.up('Shift');
    const title = await view.page.locator('#brush-title').innerText();
    const count = Number(/^(\d+) memories began/.exec(title)?.[1]);
    const state = (await view.page.evaluate(() => (window as unknown as { __state: unknown }).__state)) as {
      brush: { from: number; to: number };
    };
    const lo = Math.min(state.brush.from, state.brush.to);
    const hi = Math.max(state.brush.from, state.brush.to);
    const expected = data.memories.filter((m) => m.validFrom >= lo && m.validFrom <= hi).length;
    assert.ok(expected > 0 && expected < data.memories.length, `the left half holds some (${expected})`);
    assert.equal(count, expected);
    assert.equal(await view.page.locator('#brush-list li').count(), expected);
  });

  it('opens files named by drift findings and memories through validated commands', async () => {
    await view.post({ type: 'timeline/memory/DidReveal', memoryId: ids['stale'] });
    const open = view.page.locator('#detail button', { hasText: 'open src/config.ts' });
    await open.waitFor();
    assert.match(await view.page.locator('#detail').innerText(), /Drop the config module/);
    await open.click();
    await view.page.locator('#detail button', { hasText: 'Open memory' }).click();
    const sent = await view.sent();
    assert.deepEqual(
      sent.filter((m) => m.type === 'timeline/file/open' || m.type === 'timeline/memory/open').slice(-2),
      [
        { type: 'timeline/file/open', path: 'src/config.ts' },
        { type: 'timeline/memory/open', memoryId: ids['stale'] },
      ],
    );
  });

  it('draws a captured session as a band: its agent, times and turns on hover, its transcript on click', async () => {
    await view.page.keyboard.press('Escape');
    const box = await view.page.locator('#timeline').boundingBox();
    assert.ok(box);
    // The sessions lane is the row under the axis, scans and drift (22 + 14 + 16 px, then a 2 px gap).
    const y = box.y + 58;
    const tip = view.page.locator('#tooltip');
    let found: number | undefined;
    for (let x = 60; x < box.width && found === undefined; x += 3) {
      await view.page.mouse.move(box.x + x, y);
      if ((await tip.isVisible()) && (await tip.innerText()).startsWith('Claude Code session')) found = x;
    }
    assert.ok(found !== undefined, 'no band showed the session in its tooltip');
    const text = await tip.innerText();
    assert.match(text, /^Claude Code session · 6 turns\n/);
    assert.match(text, /Step 0: make the parser handle case 0; mail \[REDACTED:email\] if it fails/);
    await view.page.mouse.click(box.x + found, y);
    const open = await view.until('the open command', async () =>
      (await view.sent()).find((m) => m.type === 'timeline/session/open'),
    );
    assert.deepEqual(open, { type: 'timeline/session/open', sessionId: SAMPLE_SESSION });
    assert.deepEqual(view.errors, []);
  });

  it('asks for the data again when the host says memories changed, and keeps the UI state', async () => {
    const before = (await view.sent()).filter((m) => m.type === 'timeline/data/get').length;
    data = { ...data, memories: data.memories.filter((m) => m.layer === 'semantic') };
    await view.post({ type: 'timeline/data/DidChange' });
    await view.until('a new request', async () =>
      (await view.sent()).filter((m) => m.type === 'timeline/data/get').length > before ? true : undefined,
    );
    await view.until('the new data', async () =>
      (await view.page.locator('#status').innerText()).startsWith(
        `${data.memories.length} of ${data.memories.length}`,
      ),
    );
    // Unknown or malformed host messages change nothing.
    await view.post({ type: 'timeline/data/reply', id: 999, ok: true, data: { memories: 'x' } });
    await view.post({ type: 'timeline/memory/DidReveal', memoryId: '<img src=x onerror=alert(2)>' });
    await view.page.waitForTimeout(100);
    assert.deepEqual(view.errors, []);
    assert.deepEqual(view.dialogs, []);
  });
});

/** Reveal centres the memory's bar: moves down the middle of the canvas until the tooltip shows `text`. */
async function hoverUntilTooltip(view: TimelinePage, text: string): Promise<string> {
  const box = await view.page.locator('#timeline').boundingBox();
  assert.ok(box);
  const tip = view.page.locator('#tooltip');
  for (let y = 40; y < box.height; y += 2) {
    await view.page.mouse.move(box.x + box.width / 2, box.y + y);
    if ((await tip.isVisible()) && (await tip.innerText()).includes(text)) return tip.innerText();
  }
  throw new Error('no bar showed the hostile memory in its tooltip');
}
