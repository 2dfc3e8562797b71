import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importSummary } from '../../extension/importSummary';

describe('an import says what it did, in counts', () => {
  it('an Engram export: memory versions imported and skipped', () => {
    assert.equal(
      importSummary({
        from: 'engram',
        counts: { memories: { added: 3, skipped: 2 }, entities: { added: 4, skipped: 0 } },
      }),
      '3 imported, 2 skipped (already here), 0 failed: memory versions',
    );
    assert.match(importSummary({ from: 'engram', counts: {} }), /^0 imported, 0 skipped/);
  });

  it("the MCP memory server's file: observations, duplicates, and the graph's size", () => {
    assert.equal(
      importSummary({
        from: 'mcp-memory',
        entities: 2,
        observations: 5,
        relations: 1,
        duplicates: 1,
        rejected: [],
      }),
      '5 imported, 1 skipped (already here), 0 failed: observations as memories; 2 entities, 1 relation',
    );
  });

  it('the observations that could not be memories: counted as failed, the first named with its reason', () => {
    const error = { code: 'INVALID_INPUT' as const, message: 'content must not be empty' };
    assert.equal(
      importSummary({
        from: 'mcp-memory',
        entities: 2,
        observations: 3,
        relations: 0,
        duplicates: 0,
        rejected: [
          { entity: 'Alice', observation: 1, error },
          { entity: 'Bob', observation: 0, error },
        ],
      }),
      '3 imported, 0 skipped (already here), 2 failed: observations as memories; 2 entities, 0 relations' +
        ' (observation 2 of "Alice": content must not be empty; and 1 more)',
    );
  });
});
