import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { GRAPH_BODY, GRAPH_CSS } from '../../webview/graph/page';

export function graphWebviewOptions(
  extensionUri: vscode.Uri,
): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    // UI state survives hiding through getState/setState; data is requested again.
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

/**
 * The page: a strict CSP (nothing remote; scripts only with our nonce; styles with our nonce or
 * from the extension's own dist/webview, where the codicon font and its stylesheet are), VS Code
 * theme colours only. The controls are @vscode-elements web components.
 */
export function graphHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (name: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource}`,
    // The codicon stylesheet is a file of ours; @vscode-elements adopts constructed style sheets.
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
<title>Engram Graph</title>
<link id="vscode-codicon-stylesheet" rel="stylesheet" nonce="${nonce}" href="${asset('codicon.css')}">
<style nonce="${nonce}">${GRAPH_CSS}</style>
</head>
<body>
${GRAPH_BODY}
<script nonce="${nonce}" src="${asset('graph.js')}"></script>
</body>
</html>`;
}
