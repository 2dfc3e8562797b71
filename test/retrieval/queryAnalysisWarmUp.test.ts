import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryAnalysisWarmed } from '../../engine/retrieval/queryAnalysis';
import { openTestHost } from '../support/host';

/*
 * In a file of its own: the warm-up is per process, and any host opened before would have done it.
 */
describe('query analysis warm-up', () => {
  it('a one-shot host does not warm it; a host that builds in the background does, off the open', async () => {
    const oneShot = await openTestHost({ lexicalCopy: 'never' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(queryAnalysisWarmed(), false);
    await oneShot.host.close();
    const host = await openTestHost({ lexicalCopy: 'background' });
    // Not on the open's path: after it, between other work.
    assert.equal(queryAnalysisWarmed(), false);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(queryAnalysisWarmed(), true);
    await host.host.close();
  });
});
