import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** Where the built webview assets are (scripts/build.mjs writes them; the .vsix ships them). */
export function webviewAssets(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

/**
 * Options of every Engram webview panel: scripts on, assets only from dist/webview, and no
 * retained context: a hidden panel keeps only its UI state (vscode.setState) and asks for its data
 * again when shown.
 */
export function webviewPanelOptions(
  extensionUri: vscode.Uri,
): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [webviewAssets(extensionUri)],
  };
}

/** What differs between Engram pages: the title, the CSS, the body and the one script (in dist/webview). */
export interface WebviewPageContent {
  title: string;
  css: string;
  body: string;
  script: string;
}

/**
 * A panel's page, the same for every Engram webview: a strict CSP (nothing remote; scripts only
 * with a fresh nonce; styles with the nonce or from our own dist/webview, where the codicon font and
 * stylesheet are; @vscode-elements adopts constructed style sheets, which the CSP does not block),
 * the codicon stylesheet, the panel's CSS and body, and its one script. Memory content never passes
 * through this HTML: the scripts put it on screen as text.
 */
export function webviewPage(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  page: WebviewPageContent,
): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (name: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(webviewAssets(extensionUri), name)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource}`,
    `style-src 'nonce-${nonce}' ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${page.title}</title>
<link id="vscode-codicon-stylesheet" rel="stylesheet" nonce="${nonce}" href="${asset('codicon.css')}">
<style nonce="${nonce}">${page.css}</style>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${asset(page.script)}"></script>
</body>
</html>`;
}
