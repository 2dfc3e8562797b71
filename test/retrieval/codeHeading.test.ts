import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeHeading, isPythonSource } from '../../engine/lexical/codeHeading';
import { lexicalRow } from '../../engine/lexical/lexicalIndex';
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

/** Documented as what "check if a path exists" asks for; its body calls none of those words. */
const STAT_OK = `def stat_ok(name):
    """Check whether the path exists."""
    try:
        return os.stat(name) is not None
    except OSError:
        return False`;

/** About something else, calling functions the query's words name. */
const ENSURE_DIRS = `def ensure_dirs(paths):
    """Create each directory that is missing."""
    for p in paths:
        if not os.path.exists(p):
            os.makedirs(p)
    checks.check_path_exists(paths)
    checks.path_exists_check(paths)`;

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

  it('tells Python source with a body from a one-line summary of a symbol and from prose', () => {
    assert.equal(isPythonSource(RMDIR), true);
    assert.equal(isPythonSource('def rrmdir(path) (function in tools/fs.py:3). Remove a directory'), false);
    assert.equal(isPythonSource('We should def initely go. The class was fun: everyone came.'), false);
  });

  it('indexes no entities of Python source, and those of a summary or prose as before', () => {
    const entities = (content: string, entityNames: string[]) =>
      lexicalRow(1, { content, context: null, tags: [], entityNames })[4];
    assert.equal(entities(RMDIR, ['os.walk', 'os.unlink', 'os.path.join']), '');
    const summary = 'def rrmdir(path) (function in tools/fs.py:3). Remove a directory';
    assert.equal(entities(summary, ['rrmdir', 'tools/fs.py']), 'rrmdir tool fs py toolsfspy');
    assert.equal(entities('Caroline moved sessions to Postgres', ['Caroline', 'Postgres']), 'carolin postgr');
  });

  it('ranks the function documented for the query above one that calls what the query names', async () => {
    const t = await openTestHost();
    const ids: string[] = [];
    const others = [
      'def add(a, b):\n    """Add two numbers."""\n    return a + b',
      'def greet(name):\n    """Say hello."""\n    print("hello", name)',
      'The office coffee machine is on the third floor',
    ];
    for (const content of [ENSURE_DIRS, STAT_OK, ...others])
      ids.push((await t.call('remember', { content, layer: 'codebase', kind: 'code-symbol' })).memory.id);
    const { hits } = await t.call('recall', { query: 'python check if path exists', k: 3 });
    assert.deepEqual(
      hits.slice(0, 2).map((h) => h.memory.id),
      [ids[1], ids[0]],
    );
  });
});
