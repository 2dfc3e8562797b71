import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { TIMELINE_BODY, TIMELINE_CSS } from '../../webview/timeline/page';

/** Where the built webview assets are (scripts/build.mjs writes them; the .vsix ships them). */
export function webviewAssets(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

/**
 * The page: a strict CSP (nothing remote; only our nonce'd script and style, the codicon font and
 * stylesheet from the extension), theme colours only. The toolbar uses @vscode-elements web
 * components, bundled into timeline.js. Memory content never passes through this HTML: the script
 * puts it on screen as text.
 */
export function timelineHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const assets = webviewAssets(extensionUri);
  const script = webview.asWebviewUri(vscode.Uri.joinPath(assets, 'timeline.js'));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(assets, 'codicon.css'));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource}`,
    // Lit components style themselves with constructable stylesheets, which CSP does not block.
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons.toString()}" id="vscode-codicon-stylesheet">
<title>Engram Timeline</title>
<style nonce="${nonce}">${TIMELINE_CSS}</style>
</head>
<body>
${TIMELINE_BODY}
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
