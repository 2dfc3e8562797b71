import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeHeading } from '../../engine/lexical/codeHeading';
import { openTestHost } from '../support/host';

const RMDIR = `def rrmdir(path):
    """Remove a directory with everything in it."""
    for root, dirs, files in os.walk(path, topdown=False):
        for name in files:
            os.unlink(os.path.join(root, name))
        os.rmdir(root)`;

/** A body full of the query's words, about something else. */
const CACHE = `def refresh_cache(cache):
    """Reload the settings cache from the server."""
    # remove the stale directory listing: remove it before the directory is read again
    stale = listing(cache)
    return load(cache, stale)`;

describe('code heading (names, docstrings and language of a Python memory)', () => {
  it('collects each definition name with its docstring, and labels the language', () => {
    assert.equal(codeHeading(RMDIR), 'rrmdir Remove a directory with everything in it. python');
    const multiLine = `class Store(Base):\n    '''Keeps rows.'''\n\n    async def put(\n        self, row,\n    ) -> None:  # writes\n        r"""Write one row."""\n        pass`;
    assert.equal(codeHeading(multiLine), 'Store Keeps rows. put Write one row. python');
    assert.equal(codeHeading('def main():\n    run()'), 'main python');
  });

  it('finds nothing in prose, even prose that says def or class', () => {
    assert.equal(codeHeading('We should def initely go. The class was fun: everyone came.'), '');
    assert.equal(codeHeading('Caroline moved sessions from Redis to Postgres'), '');
    assert.equal(codeHeading('def unterminated(x):\n    """never closed'), 'unterminated python');
  });

  it('ranks the function whose name and docstring answer above one whose body repeats the words', async () => {
    const t = await openTestHost();
    const ids: string[] = [];
    for (const content of [CACHE, RMDIR, 'The office coffee machine is on the third floor'])
      ids.push((await t.call('remember', { content, layer: 'codebase', kind: 'code-symbol' })).memory.id);
    const { hits } = await t.call('recall', { query: 'python remove directory', k: 3 });
    assert.deepEqual(
      hits.slice(0, 2).map((h) => h.memory.id),
      [ids[1], ids[0]],
    );
  });
});
