import type { FrameLocator, Locator, Page } from 'playwright-core';

/**
 * Finding graph nodes on screen the way a user does: by looking. sigma draws nodes with WebGL
 * (whose buffer cannot be read back), so the helpers take a screenshot of the canvas, find the
 * coloured blobs in it (nodes use the theme's chart colours; edges and labels are grey), and
 * point the mouse at each until the panel's tooltip says it is the kind of node wanted.
 */

export interface Spot {
  x: number;
  y: number;
  pixels: number;
}

/** Centres of the saturated blobs in a PNG (page coordinates, given the clip's origin), smallest first. */
export async function colouredSpots(
  page: Page,
  png: Buffer,
  origin: { x: number; y: number },
): Promise<Spot[]> {
  const spots = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    // createImageBitmap on a Blob loads nothing from a URL, so the page's CSP has no say.
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) return [];
    ctx.drawImage(bitmap, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    const coloured = new Uint8Array(width * height);
    for (let i = 0; i < width * height; i++) {
      const r = data[4 * i] ?? 0;
      const g = data[4 * i + 1] ?? 0;
      const b = data[4 * i + 2] ?? 0;
      coloured[i] = Math.max(r, g, b) - Math.min(r, g, b) > 60 ? 1 : 0;
    }
    const out: { x: number; y: number; pixels: number }[] = [];
    const stack: number[] = [];
    for (let start = 0; start < coloured.length; start++) {
      if (coloured[start] !== 1) continue;
      coloured[start] = 2;
      stack.push(start);
      let sx = 0;
      let sy = 0;
      let n = 0;
      while (stack.length > 0) {
        const i = stack.pop() as number;
        const x = i % width;
        const y = (i - x) / width;
        sx += x;
        sy += y;
        n++;
        for (const j of [i - 1, i + 1, i - width, i + width]) {
          if (j < 0 || j >= coloured.length || coloured[j] !== 1) continue;
          if ((j === i - 1 && x === 0) || (j === i + 1 && x === width - 1)) continue;
          coloured[j] = 2;
          stack.push(j);
        }
      }
      if (n >= 8) out.push({ x: sx / n, y: sy / n, pixels: n });
    }
    return out.sort((a, b) => a.pixels - b.pixels);
  }, png.toString('base64'));
  return spots.map((s) => ({ ...s, x: s.x + origin.x, y: s.y + origin.y }));
}

/**
 * Moves the mouse over the coloured spots of `canvas` until `tooltip` shows text matching
 * `wanted`; returns where the mouse is (left there, hovering the node).
 */
export async function hoverNode(
  page: Page,
  canvas: Locator,
  tooltip: Locator,
  wanted: RegExp,
): Promise<{ x: number; y: number; text: string }> {
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the graph canvas is not on screen');
  const clip = {
    x: Math.round(box.x),
    y: Math.round(box.y),
    width: Math.round(box.width),
    height: Math.round(box.height),
  };
  let tried = 0;
  // A few looks: the first may come before a busy page has drawn the frame.
  for (let look = 0; look < 5; look++) {
    const spots = await colouredSpots(page, await page.screenshot({ clip }), clip);
    for (const spot of spots) {
      tried++;
      await page.mouse.move(spot.x, spot.y);
      const text = (await tooltip.isVisible()) ? await tooltip.innerText() : '';
      if (wanted.test(text)) return { x: spot.x, y: spot.y, text };
    }
    await page.waitForTimeout(1000);
  }
  throw new Error(`no node on the canvas has a tooltip matching ${wanted} (${tried} spots tried)`);
}

/** The graph page's canvas and tooltip, in a page or inside a webview's frames. */
export function graphParts(root: Page | FrameLocator): { canvas: Locator; tooltip: Locator } {
  return { canvas: root.locator('#graph'), tooltip: root.locator('#tooltip') };
}
