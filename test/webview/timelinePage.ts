import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { TIMELINE_BODY, TIMELINE_CSS } from '../../webview/timeline/page';
import type { TimelineData, WebviewToHost } from '../../webview/timeline/protocol';
import { CHROMIUM } from '../support/browser';

/**
 * The timeline webview outside VS Code, in headless Chromium: the panel's own markup, styles and
 * CSP, its script bundled the way scripts/build.mjs bundles it, a dark theme's colours, and a
 * stand-in for acquireVsCodeApi that records what the page sends. Used by the browser tests, the
 * screenshot and the frame-time benchmark.
 */

const ROOT = path.resolve(__dirname, '..', '..');
export const ORIGIN = 'https://timeline.webview.test';

/** Colours of VS Code's Dark Modern theme, as the workbench sets them on a webview's <html>. */
const DARK_THEME = `html { --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f;
  --vscode-descriptionForeground: #9d9d9d; --vscode-panel-border: #2b2b2b; --vscode-focusBorder: #0078d4;
  --vscode-charts-blue: #3794ff; --vscode-charts-green: #89d185; --vscode-charts-red: #f14c4c;
  --vscode-charts-yellow: #cca700; --vscode-charts-orange: #d18616; --vscode-charts-purple: #b180d7;
  --vscode-disabledForeground: #6b6b6b; --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px;
  --vscode-textLink-foreground: #4daafc; --vscode-textLink-activeForeground: #4daafc;
  --vscode-editor-selectionBackground: #264f78; --vscode-editorHoverWidget-background: #202020;
  --vscode-editorHoverWidget-foreground: #cccccc; --vscode-editorHoverWidget-border: #454545; }`;

let bundle: string | undefined;

/** The webview script, bundled as the build does (cached for the process). */
export async function timelineBundle(): Promise<string> {
  if (bundle) return bundle;
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'engram-timeline-'));
  await esbuild.build({
    entryPoints: [{ in: path.join(ROOT, 'webview', 'timeline', 'main.ts'), out: 'timeline' }],
    outdir,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
  });
  bundle = readFileSync(path.join(outdir, 'timeline.js'), 'utf8');
  rmSync(outdir, { recursive: true, force: true });
  return bundle;
}

/**
 * A webview page as its panel serves it (the CSP of extension/webviews/webviewPage.ts with this
 * origin as the webview's source), in the dark theme, with the acquireVsCodeApi stand-in.
 */
export function pageHtml(css = TIMELINE_CSS, body = TIMELINE_BODY, script = 'timeline.js'): string {
  const nonce = 'bm9uY2UtZm9yLXRlc3Rz';
  const csp = `default-src 'none'; img-src ${ORIGIN}; style-src ${ORIGIN} 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src ${ORIGIN}`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="${ORIGIN}/codicon.css" id="vscode-codicon-stylesheet">
<style nonce="${nonce}">${css}${DARK_THEME}</style></head><body>${body}
<script nonce="${nonce}">
  window.__sent = []; window.__violations = []; window.__state = undefined;
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__sent.push(JSON.parse(JSON.stringify(m))),
    getState: () => window.__state,
    setState: (s) => { window.__state = JSON.parse(JSON.stringify(s)); },
  });
</script>
<script nonce="${nonce}" src="${ORIGIN}/${script}"></script></body></html>`;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}

export interface TimelinePage {
  page: Page;
  dialogs: string[];
  errors: string[];
  /** Answers the page's data requests with `data` (the latest set), as TimelinePanel does. */
  pump(): Promise<WebviewToHost[]>;
  post(message: unknown): Promise<void>;
  sent(): Promise<WebviewToHost[]>;
  until<T>(what: string, probe: () => Promise<T | undefined | false>, ms?: number): Promise<T>;
}

/** Opens the page and plays the host: `data()` is what a data request gets. */
export async function openTimelinePage(
  browser: Browser,
  data: () => TimelineData,
  viewport = { width: 1280, height: 760 },
): Promise<TimelinePage> {
  const page = await browser.newPage({ viewport });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const script = await timelineBundle();
  const codicons = path.dirname(createRequire(__filename).resolve('@vscode/codicons/dist/codicon.css'));
  await page.route(`${ORIGIN}/**`, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === 'index.html') return route.fulfill({ contentType: 'text/html', body: pageHtml() });
    if (name === 'timeline.js') return route.fulfill({ contentType: 'text/javascript', body: script });
    if (name === 'codicon.css' || name === 'codicon.ttf')
      return route.fulfill({
        contentType: name.endsWith('.css') ? 'text/css' : 'font/ttf',
        body: readFileSync(path.join(codicons, name)),
      });
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}/index.html`);
  let seen = 0;
  const sent = () => page.evaluate(() => (window as unknown as { __sent: WebviewToHost[] }).__sent);
  const post = async (message: unknown) => {
    await page.evaluate((m) => window.postMessage(m, '*'), message);
  };
  const pump = async () => {
    const all = await sent();
    const fresh = all.slice(seen);
    seen = all.length;
    for (const m of fresh)
      if (m.type === 'timeline/data/get')
        await post({ type: 'timeline/data/reply', id: m.id, ok: true, data: data() });
    return fresh;
  };
  const until = async <T>(
    what: string,
    probe: () => Promise<T | undefined | false>,
    ms = 20_000,
  ): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      await pump();
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { page, dialogs, errors, pump, post, sent, until };
}
