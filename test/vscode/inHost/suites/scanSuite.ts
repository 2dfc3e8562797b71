import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ScanResult } from '../../../../engine/code/codeWorkspace';
import { EXTENSION_ID, engramApi, workspacePath } from '../extensionApi';
import { figures, test } from '../harness';

test('Scan Workspace indexes the workspace, and the main thread keeps running meanwhile', async () => {
  const api = await engramApi();
  // A medium repository: this repository's engine/ (some 300 TypeScript files) inside the fixture.
  const engineSource = path.join(vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath ?? '', 'engine');
  cpSync(engineSource, path.join(workspacePath(), 'lib', 'engine'), { recursive: true });
  // The extension host's event loop delay is how long its main thread was blocked: measured here
  // while the command scans a real repository (this repo's engine/, copied into the workspace).
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const result = await vscode.commands.executeCommand<ScanResult>('engram.scanWorkspace');
  delay.disable();
  assert.ok(result.files >= 100, `the fixture and the copied engine are indexed (got ${result.files})`);
  assert.ok(result.symbols > 0);
  const symbols = await api.engine.call('symbols', { query: 'hashPassword' });
  assert.equal(symbols[0]?.path, 'src/crypto/hash.ts');
  figures['scan files'] = result.files;
  figures['scan ms'] = result.millis;
  figures['scan: longest main-thread block ms'] = Number((delay.max / 1e6).toFixed(1));
  figures['scan: p99 event-loop delay ms'] = Number((delay.percentile(99) / 1e6).toFixed(1));
});

test('saving, creating and deleting files feeds the incremental scan', async () => {
  const api = await engramApi();
  const scanned = (check: (r: ScanResult) => boolean) =>
    new Promise<ScanResult>((resolve) => {
      const listener = api.scans.onDidFinish((r) => {
        if (!check(r)) return;
        listener.dispose();
        resolve(r);
      });
    });
  const file = vscode.Uri.file(path.join(workspacePath(), 'src', 'billing', 'invoice.ts'));
  const created = scanned((r) => r.changes.added.includes('src/billing/invoice.ts'));
  await vscode.workspace.fs.writeFile(
    file,
    Buffer.from('export function issueInvoice(total: number): string {\n  return `#${total}`;\n}\n'),
  );
  await created;
  assert.equal(
    (await api.engine.call('symbols', { query: 'issueInvoice' }))[0]?.path,
    'src/billing/invoice.ts',
  );

  const doc = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(doc);
  const changed = scanned((r) => r.changes.changed.includes('src/billing/invoice.ts'));
  await editor.edit((e) => e.insert(new vscode.Position(3, 0), 'export const CURRENCY = "EUR";\n'));
  await doc.save();
  await changed;
  assert.equal((await api.engine.call('symbols', { query: 'CURRENCY' }))[0]?.path, 'src/billing/invoice.ts');

  const deleted = scanned((r) => r.changes.deleted.includes('src/billing/invoice.ts'));
  await vscode.workspace.fs.delete(file);
  await deleted;
  assert.equal((await api.engine.call('symbols', { query: 'issueInvoice' })).length, 0);
});
