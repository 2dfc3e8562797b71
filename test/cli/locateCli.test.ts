import assert from 'node:assert/strict';
import path from 'node:path';
import { it } from 'node:test';
import { writeFiles } from '../code/codeWorkspace';
import { tempDir } from '../support/temp';
import { engram } from './engramCli';

it('engram locate lists the files to open, best first, with what matched and the symbols', async () => {
  const root = tempDir('engram-locate-cli-');
  writeFiles(root, {
    'shop/cart.py':
      'def cart_total(items):\n    """Sum of the cart items, before discounts."""\n    return sum(i.price for i in items)\n',
    'tests/test_cart.py':
      'from shop.cart import cart_total\n\n\ndef test_cart_total():\n    # cart total of no cart items\n    assert cart_total([]) == 0  # cart total\n',
  });
  const db = ['--db', path.join(root, 'x.db')];
  const scan = await engram(root, [...db, 'scan', '--no-tokens']);
  assert.equal(scan.code, 0, scan.err);
  const located = await engram(root, [...db, 'locate', 'cart_total ignores the cart discounts']);
  assert.equal(located.code, 0, located.err);
  const lines = located.out.trimEnd().split('\n');
  assert.match(lines[0] ?? '', /^ 1\. shop\/cart\.py {2}\[code #1 \(.*names.*\)\] {2}cart_total:1$/);
  assert.match(lines[1] ?? '', /^ 2\. tests\/test_cart\.py {2}\[code #2 \(.*\) x0\.3 test\]/);
  const bad = await engram(root, [...db, 'locate', 'cart', '--limit', '0']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /^engram: --limit must be 1 to 1000; got 0$/m);
});
