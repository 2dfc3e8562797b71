import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { GRAPH_BODY, GRAPH_CSS } from '../../webview/graph/page';
import type { GraphQuery, WebviewToHost } from '../../webview/graph/protocol';
import type { TestHost } from '../support/host';

/**
 * The graph webview outside VS Code, for the browser test and the benchmark: the very page the
 * panel serves (same markup, CSP and bundle), with a dark VS Code theme's colours and a stand-in
 * for acquireVsCodeApi that records what the webview sends.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist', 'webview');
const ORIGIN = 'http://webview.test';

/** A few colours of VS Code's Dark Modern theme, as the workbench sets them on a webview. */
const THEME = `body { --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f; --vscode-descriptionForeground: #9d9d9d;
  --vscode-panel-border: #2b2b2b; --vscode-charts-blue: #3794ff; --vscode-charts-green: #89d185; --vscode-charts-red: #f14c4c;
  --vscode-charts-yellow: #cca700; --vscode-charts-orange: #d18616; --vscode-charts-purple: #b180d7;
  --vscode-disabledForeground: #555555; --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px;
  --vscode-editorHoverWidget-background: #202020; --vscode-editorHoverWidget-foreground: #cccccc; --vscode-editorHoverWidget-border: #454545; }`;

/**
 * The page VS Code would show, with the same CSP (a nonce for our script and styles, nothing
 * remote), and a stand-in for acquireVsCodeApi that records what the webview sends.
 */
export function pageHtml(): string {
  const nonce = 'dGVzdG5vbmNlMTIzNDU2';
  const csp = `default-src 'none'; img-src ${ORIGIN}; style-src 'nonce-${nonce}' ${ORIGIN}; script-src 'nonce-${nonce}'; font-src ${ORIGIN}`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link id="vscode-codicon-stylesheet" rel="stylesheet" nonce="${nonce}" href="${ORIGIN}/codicon.css">
<style nonce="${nonce}">${GRAPH_CSS}${THEME}</style></head><body>${GRAPH_BODY}
<script nonce="${nonce}">
  window.__sent = []; window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  let state;
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m), getState: () => state, setState: (s) => { state = s; } });
</script>
<script nonce="${nonce}" src="${ORIGIN}/graph.js"></script></body></html>`;
}

/** Plays the extension host: answers the webview's requests from a real engine, as GraphPanel does. */
export class HostStandIn {
  private seen = 0;
  readonly received: WebviewToHost[] = [];
  constructor(
    private readonly page: Page,
    private readonly engine: Pick<TestHost, 'call'>,
  ) {}

  async post(message: unknown): Promise<void> {
    await this.page.evaluate((m) => window.postMessage(m, '*'), message);
  }

  /** Handles what the webview sent since last time; returns it. */
  async pump(): Promise<WebviewToHost[]> {
    const all = await this.page.evaluate(() => (window as unknown as { __sent: WebviewToHost[] }).__sent);
    const fresh = all.slice(this.seen);
    this.seen = all.length;
    for (const m of fresh) {
      this.received.push(m);
      if (m.type === 'graph/view/ready') await this.post({ type: 'graph/view/DidInit', reveal: null });
      if (m.type === 'graph/data/get') {
        const q: GraphQuery = m.query;
        const filters = {
          types: q.types,
          layers: q.layers,
          limit: q.limit,
          ...(q.sessions ? { sessions: true } : {}),
        };
        const data = q.seeds
          ? await this.engine.call('graphNeighbourhood', { ...filters, seeds: q.seeds, hops: q.hops })
          : await this.engine.call('graphOverview', filters);
        await this.post({ type: 'graph/data/reply', id: m.id, ok: true, data });
      }
      if (m.type === 'graph/entities/search') {
        const found = await this.engine.call('entities', { query: m.text, limit: 20 });
        const entities = found.map((e) => ({
          entityId: e.id,
          name: e.name,
          type: e.type,
          memoryCount: e.memoryCount,
        }));
        await this.post({ type: 'graph/entities/reply', id: m.id, ok: true, entities });
      }
    }
    return fresh;
  }

  async until<T>(
    what: string,
    probe: () => Promise<T | undefined | false> | T | undefined | false,
    ms = 20_000,
  ): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      await this.pump();
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** A new page showing the graph webview; `host` answers it from `engine`. */
export async function openGraphPage(
  browser: Browser,
  engine: Pick<TestHost, 'call'>,
  viewport = { width: 1200, height: 800 },
  /** JavaScript run in the page before any of its scripts (to watch what it draws). */
  initScript?: string,
): Promise<{ page: Page; host: HostStandIn; dialogs: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  if (initScript) await page.addInitScript({ content: initScript });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(`${ORIGIN}/**`, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === 'index.html') return route.fulfill({ contentType: 'text/html', body: pageHtml() });
    const types: Record<string, string> = { js: 'text/javascript', css: 'text/css', ttf: 'font/ttf' };
    const file = path.join(DIST, path.basename(name));
    return route.fulfill({
      contentType: types[name.split('.').pop() ?? ''] ?? 'text/plain',
      body: readFileSync(file),
    });
  });
  await page.goto(`${ORIGIN}/index.html`);
  return { page, host: new HostStandIn(page, engine), dialogs, errors };
}
