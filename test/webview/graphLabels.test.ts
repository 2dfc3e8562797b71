import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { syntheticMemories } from '../bench/syntheticMemories';
import { launchChromium } from '../vscode/support/browser';
import { CHROMIUM } from '../support/browser';
import { openTestHost } from '../support/host';
import { openGraphPage } from './graphPage';
import type { HostStandIn } from './graphPage';

const ROOT = path.resolve(__dirname, '..', '..');
const SHOTS = path.join(ROOT, 'bench-out', 'screenshots');

interface DrawnLabel {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Watches the page's label canvas (sigma's `canvas.sigma-labels`): every fillText since its last
 * clearRect is a label of the frame on screen, with its box measured by the canvas itself. Plain
 * JavaScript in a string: a compiled function would carry the compiler's helpers into the page.
 */
const WATCH_LABELS = `(() => {
  window.__labels = [];
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  const clearRect = proto.clearRect;
  proto.clearRect = function (...args) {
    if (this.canvas.classList.contains('sigma-labels')) window.__labels = [];
    return clearRect.apply(this, args);
  };
  proto.fillText = function (text, x, y) {
    if (this.canvas.classList.contains('sigma-labels')) {
      const m = this.measureText(text);
      window.__labels.push({
        text,
        x: x - m.actualBoundingBoxLeft,
        y: y - m.actualBoundingBoxAscent,
        width: m.actualBoundingBoxLeft + m.actualBoundingBoxRight,
        height: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent,
      });
    }
    return fillText.call(this, text, x, y);
  };
})();`;

function overlappingPairs(labels: DrawnLabel[]): [string, string][] {
  const out: [string, string][] = [];
  labels.forEach((a, i) => {
    for (const b of labels.slice(i + 1)) {
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        out.push([a.text, b.text]);
    }
  });
  return out;
}

/** Issue 19: on a graph of 300 memories the labels ran into each other. */
describe('graph webview: labels on a 300-memory graph', () => {
  let browser: Browser;
  let page: Page;
  let host: HostStandIn;
  let errors: string[] = [];

  before(async () => {
    const engine = await openTestHost();
    await engine.call('rememberMany', {
      memories: syntheticMemories(300, 7).map((content) => ({ content })),
    });
    browser = await launchChromium(CHROMIUM);
    ({ page, host, errors } = await openGraphPage(
      browser,
      engine,
      { width: 1200, height: 800 },
      WATCH_LABELS,
    ));
  });

  after(async () => {
    await browser?.close();
  });

  it('draws labels that do not overlap, and still draws many', async () => {
    await host.until('the overview', async () => /memories/.test(await page.locator('#status').innerText()));
    await host.until(
      'the layout to finish',
      () => page.evaluate(() => document.body.dataset['layout'] === 'done'),
      120_000,
    );
    // The camera's reset after the layout animates: wait until two reads a moment apart agree.
    const read = () => page.evaluate(() => (window as unknown as { __labels: DrawnLabel[] }).__labels);
    let labels = await read();
    for (let i = 0; i < 50; i++) {
      await page.waitForTimeout(200);
      const next = await read();
      if (next.length > 0 && JSON.stringify(next) === JSON.stringify(labels)) break;
      labels = next;
    }
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(path.join(SHOTS, 'graph-300-labels.png'), await page.screenshot());
    const pairs = overlappingPairs(labels);
    console.log(`labels drawn: ${labels.length}, overlapping pairs: ${pairs.length}`);
    assert.ok(labels.length >= 10, `only ${labels.length} labels drawn`);
    assert.deepEqual(pairs.slice(0, 5), [], `${pairs.length} overlapping label pairs of ${labels.length}`);
    assert.deepEqual(errors, []);
  });
});
