import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { format, resolveConfig } from 'prettier';
import { FIGURES_DIR, REPO_ROOT } from './benchRecord';
import { FIGURE_BLOCKS, FIGURE_DOCUMENTS, renderBlock } from './figureBlocks';
import { findBlocks, rewriteBlocks, staleBlocks } from './generatedBlocks';

const documents = FIGURE_DOCUMENTS.filter((d) => existsSync(path.join(REPO_ROOT, d)));
const read = (document: string, root = REPO_ROOT) => readFileSync(path.join(root, document), 'utf8');
const temp = mkdtempSync(path.join(os.tmpdir(), 'engram-figures-'));
after(() => rmSync(temp, { recursive: true, force: true }));

describe('documented figures', () => {
  it('every generated block in the documents is what its benchmark record renders', () => {
    const problems = documents.flatMap((d) => staleBlocks(read(d), d, (name) => renderBlock(name)));
    assert.deepEqual(problems, []);
  });

  it('every benchmark record is shown by at least one block', () => {
    const shown = new Set(
      documents.flatMap((d) => findBlocks(read(d).split('\n'), d).map((b) => FIGURE_BLOCKS[b.name]?.record)),
    );
    const records = readdirSync(FIGURES_DIR).map((f) => `docs/figures/${f}`);
    assert.ok(records.length > 0, 'docs/figures holds no record');
    assert.deepEqual(
      records.filter((r) => !shown.has(r)),
      [],
    );
  });

  it('a number edited by hand in a generated block is reported with the block and its line', () => {
    cpSync(path.join(REPO_ROOT, 'docs'), path.join(temp, 'docs'), { recursive: true });
    const renderCopy = (name: string) => renderBlock(name, temp);
    // Rendered afresh first, so this test sees only its own edit whatever the document holds.
    const lines = rewriteBlocks(
      read('docs/benchmarks/retrieval.md', temp),
      'docs/benchmarks/retrieval.md',
      renderCopy,
    ).split('\n');
    const block = findBlocks(lines, 'docs/benchmarks/retrieval.md').find((b) => b.name === 'recall');
    assert.ok(block, 'docs/benchmarks/retrieval.md has no recall block');
    const at = lines.findIndex((line, i) => i > block.begin && i < block.end && /\d\.\d{3}/.test(line));
    assert.ok(at > 0, 'the recall block shows no figure');
    lines[at] = lines[at]!.replace(/(\d\.\d\d)(\d)/, (_, head: string, last: string) => {
      return `${head}${(Number(last) + 1) % 10}`;
    });
    const problems = staleBlocks(lines.join('\n'), 'docs/benchmarks/retrieval.md', renderCopy);
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!,
      new RegExp(`^docs/benchmarks/retrieval\\.md:${at + 1}: figures block "recall" differs`),
    );
    assert.ok(problems[0]!.includes(JSON.stringify(lines[at])), problems[0]);
  });

  it('rewriting replaces only what is between the markers, and the result passes the check', () => {
    const text = [
      '# Prose',
      'Kept 0.123.',
      '<!-- figures:localize:begin -->',
      '| stale | 0.999 |',
      '<!-- figures:localize:end -->',
      'After, kept.',
    ].join('\n');
    const rewritten = rewriteBlocks(text, 'x.md', (name) => `rendered ${name}\nsecond line`);
    assert.equal(
      rewritten,
      [
        '# Prose',
        'Kept 0.123.',
        '<!-- figures:localize:begin -->',
        '',
        'rendered localize',
        'second line',
        '',
        '<!-- figures:localize:end -->',
        'After, kept.',
      ].join('\n'),
    );
    assert.deepEqual(
      staleBlocks(rewritten, 'x.md', (name) => `rendered ${name}\nsecond line`),
      [],
    );
  });

  it('a block without its end marker, or of an unknown name, is refused in one line', () => {
    assert.throws(
      () => findBlocks(['a', '<!-- figures:recall:begin -->', 'b'], 'x.md'),
      /^Error: x\.md:2: figures block "recall" has no end marker$/,
    );
    assert.throws(
      () => findBlocks(['<!-- figures:recall:end -->'], 'x.md'),
      /x\.md:1: figures block "recall" ends but was not begun/,
    );
    assert.throws(() => renderBlock('nonsense'), /unknown figures block "nonsense" \(known: recall, /);
  });

  it('every rendered block is already in prettier form, so npm run figures never fights format:check', async () => {
    const options = {
      ...(await resolveConfig(path.join(REPO_ROOT, 'docs/benchmarks/retrieval.md'))),
      parser: 'markdown',
    };
    for (const name of Object.keys(FIGURE_BLOCKS)) {
      if (!existsSync(path.join(REPO_ROOT, FIGURE_BLOCKS[name]!.record))) continue;
      const markdown = `${renderBlock(name)}\n`;
      assert.equal(await format(markdown, options), markdown, `block "${name}"`);
    }
  });
});
