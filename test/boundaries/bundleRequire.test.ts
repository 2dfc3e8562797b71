import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { requireBundle } from '../../engine/bin/bundleRequire';
import { tempDir } from '../support/temp';

/** The byte at which the first 64 KiB piece ends. */
const PIECE = 64 * 1024;

/**
 * A CommonJS bundle of `size` bytes or more that requires a file beside it and imports another;
 * its text holds a run of "\u00e9" (two bytes in UTF-8) from an odd offset, so one of them straddles
 * the end of the first 64 KiB piece.
 */
function writeBundle(dir: string, name: string, size: number): string {
  let head = [
    '"use strict";',
    'exports.file = __filename;',
    'exports.dir = __dirname;',
    'exports.beside = require("./lib/beside.js").value;',
    'exports.later = () => import("./lib/later.mjs").then((m) => m.value);',
    'exports.text = "',
  ].join('\n');
  if (head.length % 2 === 0) head = head.replace('exports.text', 'exports.text ');
  const run = Math.max(1, Math.ceil((size - head.length) / 2));
  const file = path.join(dir, name);
  writeFileSync(file, `${head}${'\u00e9'.repeat(run)}";\n`);
  return file;
}

function fixtures(): string {
  const dir = tempDir('engram-bundle-');
  mkdirSync(path.join(dir, 'lib'));
  writeFileSync(path.join(dir, 'lib', 'beside.js'), 'exports.value = "beside";\n');
  writeFileSync(path.join(dir, 'lib', 'later.mjs'), 'export const value = "later";\n');
  return dir;
}

interface Loaded {
  file: string;
  dir: string;
  beside: string;
  later: () => Promise<string>;
  text: string;
}

describe('requireBundle: a CommonJS bundle read in 64 KiB pieces', () => {
  it('gives what require gives: exports, __filename, __dirname, text across piece boundaries', () => {
    const dir = fixtures();
    writeBundle(dir, 'viaRequire.js', 300_000);
    writeBundle(dir, 'inPieces.js', 300_000);
    assert.equal(
      readFileSync(path.join(dir, 'inPieces.js'))[PIECE - 1],
      0xc3,
      'a character straddles the piece end',
    );
    const required = createRequire(__filename)(path.join(dir, 'viaRequire.js')) as Loaded;
    const loaded = requireBundle(dir, './inPieces.js') as Loaded;
    assert.equal(loaded.file, path.join(dir, 'inPieces.js'));
    assert.equal(loaded.dir, dir);
    assert.equal(loaded.beside, 'beside');
    assert.equal(loaded.text.length, required.text.length);
    assert.equal(loaded.text, required.text);
    assert.match(loaded.text, /^\u00e9+$/);
  });

  it("resolves the bundle's import() from its own directory", async () => {
    const dir = fixtures();
    writeBundle(dir, 'bundle.js', 1000);
    const loaded = requireBundle(dir, './bundle.js') as Loaded;
    assert.equal(await loaded.later(), 'later');
  });

  it('loads a bundle once: a second call and a plain require get the same exports', () => {
    const dir = fixtures();
    const file = writeBundle(dir, 'bundle.js', 1000);
    const first = requireBundle(dir, './bundle.js');
    assert.equal(requireBundle(dir, 'bundle.js'), first);
    assert.equal(createRequire(__filename)(file), first);
  });

  it('throws what the bundle throws and keeps no half-loaded module', () => {
    const dir = fixtures();
    const file = path.join(dir, 'broken.js');
    writeFileSync(file, 'exports.partial = 1;\nthrow new Error("bundle failed at load");\n');
    assert.throws(() => requireBundle(dir, './broken.js'), /bundle failed at load/);
    assert.equal(createRequire(__filename).cache[file], undefined);
    assert.throws(() => requireBundle(dir, './missing.js'), /ENOENT/);
  });
});
