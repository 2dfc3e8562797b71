import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEFORE_CHANGE, memoryIn, scannedAfterChange } from './driftHost';

describe('drift on links between documents', () => {
  it('a link to a document that moved is moved, though a file of that name exists elsewhere', async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'docs/Server.md': '# Server\n\nSee [`Reply`](Reply.md) and [the logger](./Logging.md).\n',
        'docs/Reply.md': '# Reply\n\nThe reply object.\n',
        'docs/Logging.md': '# Logging\n\nHow to log.\n',
      },
      'Docs reorganization',
      {
        rename: [
          ['docs/Server.md', 'docs/Reference/Server.md'],
          ['docs/Reply.md', 'docs/Reference/Reply.md'],
          ['docs/Logging.md', 'docs/Reference/Logging.md'],
        ],
      },
    );
    const written = await test.call('remember', {
      content: 'See [`Reply`](Reply.md) and [the logger](./Logging.md) for what a handler gets.',
      validFrom: BEFORE_CHANGE,
      source: { file: 'docs/Server.md' },
      dedupe: false,
    });
    const report = await test.call('drift', { all: true });
    const paths = memoryIn(report, written.memory.id).claims.filter((c) => c.kind === 'path');
    assert.deepEqual(
      paths.map((c) => [c.subject, c.verdict, c.evidence.target, c.evidence.commit?.hash]),
      [
        ['Reply.md', 'moved', 'Reference/Reply.md', changing],
        ['./Logging.md', 'moved', 'Reference/Logging.md', changing],
      ],
    );
  });
});
