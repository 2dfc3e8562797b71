/**
 * After a window reload VS Code restores a webview panel only if the extension is activated for
 * its view type (`onWebviewPanel:<viewType>`) and registers a serializer for it during activation.
 * This checks the manifest against the sources, so a new panel (or a renamed view type) cannot
 * silently lose its restore.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ANALYTICS_VIEW_TYPE } from '../../webview/analytics/protocol';
import { GRAPH_VIEW_TYPE } from '../../webview/graph/protocol';
import { TIMELINE_VIEW_TYPE } from '../../webview/timeline/protocol';

const root = path.resolve(import.meta.dirname, '../..');
const VIEW_TYPES: Record<string, string> = { ANALYTICS_VIEW_TYPE, GRAPH_VIEW_TYPE, TIMELINE_VIEW_TYPE };
const source = (file: string): string => readFileSync(path.join(root, file), 'utf8');

/** Each registerWebviewPanelSerializer call in extension/webviews: its file and view type. */
function serializers(): Array<{ file: string; viewType: string }> {
  const found: Array<{ file: string; viewType: string }> = [];
  for (const name of readdirSync(path.join(root, 'extension/webviews'))) {
    const file = `extension/webviews/${name}`;
    for (const match of source(file).matchAll(/registerWebviewPanelSerializer\(\s*([\w.'"-]+)/g)) {
      const argument = match[1] ?? '';
      const viewType = VIEW_TYPES[argument] ?? /^['"](.+)['"]$/.exec(argument)?.[1];
      assert.ok(viewType, `${file}: unknown view type ${argument} (add its constant to this test)`);
      found.push({ file, viewType });
    }
  }
  return found;
}

void describe('webview panels restore after a reload', () => {
  const manifest = JSON.parse(source('package.json')) as { activationEvents: string[] };

  void it('every panel with a serializer has an onWebviewPanel activation event', () => {
    const registered = serializers();
    assert.deepEqual(registered.map((s) => s.viewType).sort(), [
      'engram.analytics',
      'engram.graph',
      'engram.timeline',
    ]);
    for (const { file, viewType } of registered) {
      assert.ok(
        manifest.activationEvents.includes(`onWebviewPanel:${viewType}`),
        `package.json activationEvents lacks onWebviewPanel:${viewType} (serializer in ${file})`,
      );
    }
  });

  void it('the serializers are registered during activate()', () => {
    const extension = source('extension/extension.ts');
    const start = extension.search(/export (async )?function activate\(/);
    assert.ok(start >= 0, 'extension.ts exports activate');
    // Up to the next top-level function: deactivate, or helpers after activate.
    const end = extension.indexOf('\n}\n', start);
    const activate = extension.slice(start, end);
    for (const { file } of serializers()) {
      // The function in the panel's module that registers its serializer, and its call in activate.
      const text = source(file);
      const at = text.indexOf('registerWebviewPanelSerializer(');
      const register = [...text.slice(0, at).matchAll(/export function (register\w+)\(/g)].pop()?.[1];
      assert.ok(register, `${file}: the serializer is registered inside an exported register function`);
      assert.match(activate, new RegExp(`\\b${register}\\(`), `activate() calls ${register}`);
    }
  });
});
