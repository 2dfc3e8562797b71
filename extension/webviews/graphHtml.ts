import type * as vscode from 'vscode';
import { GRAPH_BODY, GRAPH_CSS } from '../../webview/graph/page';
import { webviewAssets, webviewPage } from './webviewPage';

export function graphWebviewOptions(
  extensionUri: vscode.Uri,
): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    // UI state survives hiding through getState/setState; data is requested again.
    retainContextWhenHidden: false,
    localResourceRoots: [webviewAssets(extensionUri)],
  };
}

/** The Graph's page (CSP and assets as every Engram webview, see webviewPage.ts). */
export function graphHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewPage(webview, extensionUri, {
    title: 'Engram Graph',
    css: GRAPH_CSS,
    body: GRAPH_BODY,
    script: 'graph.js',
  });
}
