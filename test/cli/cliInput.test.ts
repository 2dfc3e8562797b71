import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/temp';
import { engram } from './engramCli';
import type { CliResult } from './engramCli';

/** A rejected command: exit 1 and exactly one line on stderr, naming `what`. */
function assertOneLineError(result: CliResult, what: RegExp, args: string): void {
  assert.equal(result.code, 1, `${args} -> exit ${result.code}: ${result.err}`);
  assert.match(
    result.err,
    /^engram: [^\n]+\n$/,
    `${args} must print one line; printed ${JSON.stringify(result.err)}`,
  );
  assert.match(result.err, what, args);
}

describe('the CLI refuses impossible input with one line and changes nothing', () => {
  it('rejects impossible dates and years past 9999 in --valid-from, as-of and --valid-to', async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'x.db')];
    for (const args of [
      ['remember', 'Releases are cut on Tuesdays', '--valid-from', '2026-02-30'],
      ['remember', 'Releases are cut on Tuesdays', '--valid-from', '2026-13-01T00:00:00Z'],
      ['remember', 'Releases are cut on Tuesdays', '--valid-from', '2026-04-31T10:00:00Z'],
      ['remember', 'Releases are cut on Tuesdays', '--valid-from', '2026-01-01T24:30:00Z'],
      ['remember', 'Releases are cut on Tuesdays', '--valid-from', '99999-01-01'],
      ['remember', 'Releases are cut on Tuesdays', '--valid-from', '+099999-01-01T00:00:00Z'],
      ['as-of', '2026-02-30'],
    ]) {
      assertOneLineError(
        await engram(dir, [...db, ...args]),
        new RegExp(args.at(-1)!.replace('+', '\\+')),
        args.join(' '),
      );
    }
    assert.match((await engram(dir, [...db, 'list'])).out, /^0 of 0/);
    const leap = await engram(dir, [
      ...db,
      '--json',
      'remember',
      'Leap day release',
      '--valid-from',
      '2028-02-29',
    ]);
    assert.equal(leap.code, 0, leap.err);
    assert.equal(
      new Date((JSON.parse(leap.out) as { memory: { validFrom: number } }).memory.validFrom).toISOString(),
      '2028-02-29T00:00:00.000Z',
    );
    const id = (JSON.parse(leap.out) as { memory: { id: string } }).memory.id;
    assertOneLineError(
      await engram(dir, [...db, 'invalidate', id, '--reason', 'moot', '--valid-to', '2027-02-29']),
      /2027-02-29/,
      'invalidate --valid-to 2027-02-29',
    );
    assert.match((await engram(dir, [...db, 'get', id])).out, /active/);
  });

  it('rejects a negative or fractional --offset', async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'x.db')];
    assertOneLineError(
      await engram(dir, [...db, 'list', '--offset', '-1']),
      /offset .*-1/,
      'list --offset -1',
    );
    assertOneLineError(
      await engram(dir, [...db, 'list', '--offset', '1.5']),
      /offset .*1\.5/,
      'list --offset 1.5',
    );
    assert.equal((await engram(dir, [...db, 'list', '--offset', '0'])).code, 0);
  });

  it("a bad option value is refused by the method's schema, in one line naming the option", async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'x.db')];
    assert.equal((await engram(dir, [...db, 'remember', 'Deploys go through the release train'])).code, 0);
    for (const [args, message] of [
      [['recall', 'deploys', '-k', '5000'], /^engram: -k must be 1 to 1000; got 5000\n$/],
      [['related', 'release', '--hops', '9'], /^engram: --hops must be 1 to 4; got 9\n$/],
      [
        ['context', 'deploys', '--budget', '10'],
        /^engram: --budget must be a whole number of tokens from 50/,
      ],
      [['list', '--layer', 'cortex'], /^engram: --layer must be one of .*; got "cortex"\n$/],
      [['list', '--status', 'sleeping'], /^engram: --status must be one of .*all; got "sleeping"\n$/],
      [
        ['remember', 'x', '--importance', '3'],
        /^engram: --importance must be a number from 0 to 1; got 3\n$/,
      ],
      [['remember', 'x', '--kind', 'rumour'], /^engram: --kind must be one of .*; got "rumour"\n$/],
      [['symbols', 'Release', '--limit', '0'], /^engram: --limit must be 1 to 1000; got 0\n$/],
      [['map', '--budget', '5'], /^engram: --budget must be a whole number of tokens from 16/],
      [['export', '--format', 'pdf'], /^engram: --format must be one of jsonl, md; got "pdf"\n$/],
    ] as Array<[string[], RegExp]>) {
      assertOneLineError(await engram(dir, [...db, ...args]), message, args.join(' '));
    }
    assert.match((await engram(dir, [...db, 'list'])).out, /^1 of 1$/m, 'nothing written');
  });

  it('refuses an export from a newer schema, naming both versions, and imports nothing', async () => {
    const dir = tempDir();
    const source = ['--db', path.join(dir, 'source.db')];
    assert.equal((await engram(dir, [...source, 'remember', 'Melanie owns the release process'])).code, 0);
    assert.equal((await engram(dir, [...source, 'export', 'out.jsonl'])).code, 0);
    const lines = readFileSync(path.join(dir, 'out.jsonl'), 'utf8').split('\n');
    const header = JSON.parse(lines[0]!) as { schema: number };
    lines[0] = JSON.stringify({ ...header, schema: header.schema + 1 });
    writeFileSync(path.join(dir, 'newer.jsonl'), lines.join('\n'));
    const target = ['--db', path.join(dir, 'target.db')];
    assertOneLineError(
      await engram(dir, [...target, 'import', 'newer.jsonl']),
      new RegExp(`schema version ${header.schema + 1}.*${header.schema}`),
      'import of a newer schema',
    );
    assert.match((await engram(dir, [...target, 'list'])).out, /^0 of 0/);
  });

  it('prints every usage error, and a failed export, on one line', async () => {
    const dir = tempDir();
    const db = ['--db', path.join(dir, 'x.db')];
    for (const [args, what] of [
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['remember'], /missing required argument 'text'/],
      [['get'], /missing required argument 'id'/],
      [['list', '--layer', 'cortex'], /cortex/],
      [['list', '--bogus'], /unknown option '--bogus'/],
      [['remember', 'x', '--importance', 'lots'], /lots/],
      [['remember', 'x', '--kind'], /--kind/],
      [['export', 'a', 'b'], /too many arguments/],
      [['serve'], /--mcp/],
      [['invalidate', 'm_x'], /--reason/],
      [['import'], /missing required argument 'file'/],
      [['mcp-config'], /--client/],
      [['export', path.join(dir, 'missing', 'out.jsonl')], /cannot write .*missing.*ENOENT/],
    ] as Array<[string[], RegExp]>) {
      assertOneLineError(await engram(dir, [...db, ...args]), what, args.join(' '));
    }
  });
});
