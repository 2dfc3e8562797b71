import { isEmpty, renderHealth } from './healthSection';
import { parseHostMessage } from './protocol';
import type { WebviewToHost } from './protocol';

/** What VS Code gives a webview script (acquireVsCodeApi); this page keeps no UI state. */
interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const status = document.getElementById('status') as HTMLParagraphElement;
const health = document.getElementById('health') as HTMLDivElement;
let nextRequest = 1;
/** The request whose reply is awaited: an older reply (data that changed since) is dropped. */
let pending = 0;

function load(): void {
  pending = nextRequest++;
  vscode.postMessage({ type: 'analytics/health/get', id: pending });
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (!message) return;
  if (message.type === 'analytics/health/DidChange') return load();
  if (message.id !== pending) return;
  if (!message.ok) status.textContent = `Could not load the lifecycle data: ${message.error}`;
  else {
    renderHealth(health, message.data);
    status.textContent = isEmpty(message.data)
      ? 'No memories yet'
      : `${message.data.quality.active} active memories`;
  }
  // Which reply the page shows (the browser tests wait for it).
  document.body.dataset['shown'] = String(pending);
});

// The host runs the command (its progress, question and summary are VS Code's notifications).
document
  .getElementById('consolidate')
  ?.addEventListener('click', () => vscode.postMessage({ type: 'analytics/consolidation/run' }));

load();
