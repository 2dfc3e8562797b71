import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeTerms } from '../../engine/code/search/codeTerms';
import { FieldIndex } from '../../engine/code/search/fieldIndex';
import { pathRole, rolesAskedFor } from '../../engine/code/search/pathRoles';

describe('path roles', () => {
  it('reads what a file is for from its path', () => {
    const roles = Object.fromEntries(
      [
        'src/_pytest/python.py',
        'testing/test_python.py',
        'xarray/tests/test_dataset.py',
        'tests/fixtures/tiny_module.py',
        'pkg/conftest.py',
        'src/app.test.ts',
        'doc/usage/extensions/example_google.py',
        'docs/index.rst',
        'README.md',
        'examples/plot_grid.py',
        'asv_bench/benchmarks/indexing.py',
        'pylint/checkers/base.py',
        'requests/models.py',
      ].map((p) => [p, pathRole(p)]),
    );
    assert.deepEqual(roles, {
      'src/_pytest/python.py': 'implementation',
      'testing/test_python.py': 'test',
      'xarray/tests/test_dataset.py': 'test',
      'tests/fixtures/tiny_module.py': 'test',
      'pkg/conftest.py': 'test',
      'src/app.test.ts': 'test',
      'doc/usage/extensions/example_google.py': 'docs',
      'docs/index.rst': 'docs',
      'README.md': 'docs',
      'examples/plot_grid.py': 'example',
      'asv_bench/benchmarks/indexing.py': 'benchmark',
      'pylint/checkers/base.py': 'implementation',
      'requests/models.py': 'implementation',
    });
  });

  it('hears a question for tests or docs, not an issue that mentions a failing test', () => {
    assert.deepEqual([...rolesAskedFor('where are the tests for the retry policy?')], ['test']);
    assert.deepEqual([...rolesAskedFor('Which docs describe the config file?')], ['docs']);
    assert.deepEqual(
      [...rolesAskedFor('Session.send drops the timeout. The test test_send fails; where is it sent?')],
      [],
    );
    assert.deepEqual([...rolesAskedFor('pytest -k fails with a unicode test id')], []);
  });
});

describe('code terms', () => {
  it('splits identifiers, stems their parts and keeps each whole', () => {
    assert.deepEqual(codeTerms('ds.to_netcdf(path)'), ['ds', 'netcdf', 'tonetcdf', 'path']);
    assert.deepEqual(codeTerms('getUserName'), ['get', 'user', 'name', 'getusername']);
    assert.deepEqual(codeTerms('Retries are failing'), ['retri', 'fail']);
  });
});

describe('field index', () => {
  const params = {
    k1: 1.2,
    weight: { path: 3, names: 2, signatures: 1, docs: 1, body: 1 },
    b: { path: 0.3, names: 0.5, signatures: 0.5, docs: 0.5, body: 0.75 },
  };
  const idf = () => 1;

  it('scores a word in a name above the same word in a body, the same once packed', () => {
    const index = new FieldIndex();
    index.add({ names: ['retry'], body: ['loop', 'retry', 'wait', 'sleep'] });
    index.add({ body: ['retry', 'wait', 'loop', 'sleep'] });
    const terms = new Map([['retry', 1]]);
    const scored = index.search(terms, params, idf).sort((a, b) => a.doc - b.doc);
    assert.ok(scored[0]!.score > scored[1]!.score);
    assert.ok((scored[0]!.fields.names ?? 0) > (scored[0]!.fields.body ?? 0));
    index.pack();
    assert.deepEqual(
      index.search(terms, params, idf).sort((a, b) => a.doc - b.doc),
      scored,
    );
    assert.equal(index.documentFrequency('loop'), 2);
    assert.throws(() => index.add({ body: ['retry'] }), /add after pack/);
  });
});
