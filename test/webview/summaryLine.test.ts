import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { summaryLine } from '../../webview/shared/text';

const ROOT = path.resolve(__dirname, '../..');

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('summaryLine is defined once, in webview/shared/text.ts, for both webviews and their hosts', () => {
  const defining = ['webview', 'extension']
    .flatMap((dir) => typeScriptFiles(path.join(ROOT, dir)))
    .filter((file) => /\bfunction summaryLine\b|\bsummaryLine\s*=\s*\(/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(ROOT, file).split(path.sep).join('/'));
  assert.deepEqual(defining, ['webview/shared/text.ts']);
});

test('summaryLine makes one line of untrusted text, cut with an ellipsis', () => {
  assert.equal(summaryLine('  a\u0000b\r\n\tc  '), 'a b c');
  assert.equal(summaryLine('abcdefghij', 5), 'abcd…');
  assert.equal(summaryLine('abcde', 5), 'abcde');
});
