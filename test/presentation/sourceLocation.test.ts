import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateSource } from '../../extension/sourceLocation';

const FILE = 'line one\nconst sessionHours = 12;\nline three\n';
const SELECTED = 'const sessionHours = 12;';
const at = FILE.indexOf(SELECTED);
const remembered = {
  content: SELECTED,
  context: 'src/a.ts:2-2',
  source: { file: 'src/a.ts', start: at, end: at + SELECTED.length },
};

describe('Go to Source finds the remembered text in its file', () => {
  it('uses the stored offsets while they still hold the text', () => {
    assert.deepEqual(locateSource(FILE, remembered), { start: at, end: at + SELECTED.length, exact: true });
  });

  it('finds the text again after lines were added above it', () => {
    const moved = `// a header\n// more\n${FILE}`;
    const start = moved.indexOf(SELECTED);
    assert.deepEqual(locateSource(moved, remembered), { start, end: start + SELECTED.length, exact: true });
  });

  it('picks the occurrence nearest to where it was', () => {
    const twice = `${SELECTED}\n${FILE}`;
    const second = twice.indexOf(SELECTED, 1);
    const near = { ...remembered, source: { ...remembered.source, start: second, end: second + 3 } };
    assert.equal(locateSource(twice, near)?.start, second);
  });

  it('falls back to the remembered lines when the text was edited away', () => {
    const edited = 'line one\nconst sessionHours = 24;\nline three\n';
    assert.deepEqual(locateSource(edited, remembered), {
      start: 9,
      end: edited.indexOf('\nline three'),
      exact: false,
    });
  });

  it('has nothing to locate for a memory without a source file', () => {
    assert.equal(locateSource(FILE, { content: 'x', context: null, source: null }), undefined);
    assert.equal(locateSource(FILE, { content: 'x', context: null, source: { commit: 'abc' } }), undefined);
  });
});
