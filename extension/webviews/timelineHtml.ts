import type * as vscode from 'vscode';
import { TIMELINE_BODY, TIMELINE_CSS } from '../../webview/timeline/page';
import { webviewPage } from './webviewPage';

/** The Timeline's page (CSP and assets as every Engram webview, see webviewPage.ts). */
export function timelineHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewPage(webview, extensionUri, {
    title: 'Engram Timeline',
    css: TIMELINE_CSS,
    body: TIMELINE_BODY,
    script: 'timeline.js',
  });
}
