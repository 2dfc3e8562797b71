import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bundledFixture } from '../support/fixtureBundle';
import { tempDir } from '../support/temp';

const root = path.join(__dirname, '..', '..');
const FIXTURE = path.join(root, 'test', 'fixtures', 'allocateAfterLoad.ts');

/** A CommonJS file of 2.2 MB, as large as dist/engineCore.js is within a power of two (2-4 MB). */
function largeModule(): string {
  const line = `exports.size += "${'x'.repeat(100)}".length;\n`;
  const file = path.join(tempDir('engram-large-module-'), 'large.js');
  writeFileSync(
    file,
    `"use strict";\nexports.size = 0;\n${line.repeat(Math.ceil((2.2 * 1024 * 1024) / line.length))}`,
  );
  return file;
}

/** [heap] resident KB before and after a child loads `file` and holds and frees three 2.5 MB buffers. */
function heapAfterLoad(how: 'require' | 'pieces', file: string): { before: number; after: number } {
  const out = execFileSync(process.execPath, ['--expose-gc', bundledFixture(FIXTURE), how, file], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as { before: number; after: number };
}

describe('loading the engine bundle leaves the allocator as it found it', () => {
  it(
    'after requireBundle, buffers of a few MB are given back when freed; after require, the heap keeps them',
    { skip: process.platform !== 'linux' && 'reads /proc/self/smaps (glibc)' },
    () => {
      const file = largeModule();
      const pieces = heapAfterLoad('pieces', file);
      assert.ok(
        pieces.after - pieces.before < 1024,
        `[heap] ${pieces.before} -> ${pieces.after} KB after freeing 7.5 MB of buffers`,
      );
      // The cause: require read the file into a native string that grew to 4 MB and was freed,
      // which raised glibc's mmap threshold to 4 MB (its trim threshold to 8 MB) for good.
      const required = heapAfterLoad('require', file);
      assert.ok(
        required.after - pieces.after >= 4096,
        `[heap] after require ${required.after} KB, after requireBundle ${pieces.after} KB`,
      );
    },
  );

  it('dist/mcp.js loads dist/engineCore.js through requireBundle', () => {
    const mcp = readFileSync(path.join(root, 'dist', 'mcp.js'), 'utf8');
    assert.match(mcp, /requireBundle\(__dirname, *"\.\/engineCore\.js"\)/);
    assert.doesNotMatch(mcp, /require\("\.\/engineCore\.js"\)/);
  });
});
