import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineReader, LineTooLongError, lineSplitter } from '../../engine/process/lineReader';

void describe('LineReader', () => {
  it('joins a line split inside a multi-byte character and drops blank lines', () => {
    const reader = new LineReader(100);
    const bytes = Buffer.from('a\n\nÅngström\r\n', 'utf8');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of 'Å'
    assert.deepEqual(reader.push(bytes.subarray(0, split)), ['a']);
    assert.deepEqual(reader.push(bytes.subarray(split)), ['Ångström']);
  });

  it('without onOversize, an oversize line throws', () => {
    const reader = new LineReader(4);
    assert.throws(() => reader.push('abcdef'), LineTooLongError);
  });

  it('with onOversize, drops the oversize line up to its newline and reports it in stream order', () => {
    const events: string[] = [];
    const reader = new LineReader(4, () => events.push('oversize'));
    const onLine = (line: string) => events.push(line);
    reader.read('ok\nabc', onLine);
    reader.read('defgh', onLine); // the line passes 4 bytes here, before its newline arrives
    reader.read('ijk\nnext\n', onLine); // the rest of the oversize line is dropped, not read as a line
    reader.read('abcdefgh\nlast\n', onLine); // a whole oversize line in one chunk
    assert.deepEqual(events, ['ok', 'oversize', 'next', 'oversize', 'last']);
  });

  it('lineSplitter logs whole lines of worker output and a note for an oversize one', () => {
    const logged: string[] = [];
    const split = lineSplitter((line) => logged.push(line));
    split('first li');
    split('ne\nsecond\n');
    split(`${'x'.repeat(70_000)}\nthird\n`);
    assert.deepEqual(logged, ['first line', 'second', '(a log line too long to show was dropped)', 'third']);
  });
});
