import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { scanWorkspace } from '../../engine/code/scanWorkspace';
import { sourceTokens } from '../../engine/code/tokenCost';
import { tokenCount } from '../../engine/retrieval/tokenCount';
import { openTestHost } from '../support/host';
import { grammarsDirectory, workspaceWith, writeFiles } from './codeWorkspace';

const FILES = {
  'src/limiter.ts':
    'export class Limiter {\n  allow(key: string): boolean {\n    return key.length > 0;\n  }\n}\n',
  'src/server.ts': "import { Limiter } from './limiter';\nexport const limiter = new Limiter();\n",
  'README.md': '# Demo\n\nNot parsed: no grammar.\n',
};

describe('source tokens of a scan', () => {
  it('are counted where the scan reads each parsed file, in the worker, and only when asked', async () => {
    const root = workspaceWith(FILES);
    const test = await openTestHost();
    after(() => test.host.close());
    const onDisk = (file: string) => tokenCount(readFileSync(path.join(root, file), 'utf8'));
    const scan = (countTokens: boolean) =>
      scanWorkspace({ store: test.host.store.db, root, grammarsDirectory: grammarsDirectory(), countTokens });

    const counted = await scan(true);
    assert.deepEqual(Object.fromEntries(counted.sourceTokens), {
      'src/limiter.ts': onDisk('src/limiter.ts'),
      'src/server.ts': onDisk('src/server.ts'),
    });
    writeFiles(root, { 'src/server.ts': `${FILES['src/server.ts']}export const port = 8080;\n` });
    assert.equal((await scan(false)).sourceTokens.size, 0);
  });

  it('in the report: the scan counts what it read, the rest is read again', async () => {
    const root = workspaceWith(FILES);
    const test = await openTestHost({ code: { root, grammarsDirectory: grammarsDirectory() } });
    after(() => test.host.close());
    const expected = await sourceTokens(root, ['src/limiter.ts', 'src/server.ts']);
    assert.equal((await test.call('scan', { tokens: true })).tokenRatio?.sourceTokens, expected);
    writeFiles(root, { 'src/server.ts': `${FILES['src/server.ts']}export const port = 8080;\n` });
    const edited = await sourceTokens(root, ['src/limiter.ts', 'src/server.ts']);
    assert.ok(edited > expected);
    assert.equal((await test.call('scan', { tokens: true })).tokenRatio?.sourceTokens, edited);
  });
});
