import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { manifestKindOf, readManifest } from '../../engine/code/manifests/readManifest';

describe('manifests and config', () => {
  it('recognises manifests by name and place', () => {
    assert.equal(manifestKindOf('packages/a/package.json'), 'package.json');
    assert.equal(manifestKindOf('tsconfig.build.json'), 'tsconfig');
    assert.equal(manifestKindOf('.github/workflows/ci.yml'), 'ci-workflow');
    assert.equal(manifestKindOf('docs/workflows/ci.yml'), undefined);
    assert.equal(manifestKindOf('docker/Dockerfile.dev'), 'dockerfile');
  });

  it('pyproject: PEP 621 name, dependencies and scripts', () => {
    const record = readManifest(
      'pyproject',
      '[project]\nname = "shop"\ndependencies = ["requests>=2.31", "pydantic[email] ~=2.0; python_version>\'3.8\'", "rich"]\n\n[project.scripts]\nshop = "shop.cli:main"\n',
    );
    assert.equal(record.name, 'shop');
    assert.deepEqual(record.data.dependencies, { requests: '>=2.31', pydantic: '~=2.0', rich: '*' });
    assert.deepEqual(record.data.scripts, { shop: 'shop.cli:main' });
  });

  it('go.mod: module path and requirements, block and single-line', () => {
    const record = readManifest(
      'go.mod',
      'module example.com/shop\n\ngo 1.22\n\nrequire github.com/a/b v1.0.0\nrequire (\n\tgithub.com/c/d v0.2.0 // indirect\n)\n',
    );
    assert.equal(record.name, 'example.com/shop');
    assert.deepEqual(record.data.dependencies, { 'github.com/a/b': 'v1.0.0', 'github.com/c/d': 'v0.2.0' });
  });

  it('Makefile targets, Dockerfile images and ports, workflow jobs', () => {
    const make = readManifest(
      'makefile',
      '.PHONY: test\nCC := gcc\ntest: build\n\tgo test ./...\nbuild:\n\tgo build\n%.o: %.c\n\tcc $<\n',
    );
    assert.deepEqual(make.data.scripts, { test: 'go test ./...', build: 'go build' });
    const docker = readManifest(
      'dockerfile',
      'FROM golang:1.22 AS build\nRUN go build\nFROM --platform=linux/amd64 gcr.io/distroless/base\nCOPY --from=build /app /app\nEXPOSE 8080 9090/udp\n',
    );
    assert.deepEqual(docker.data.baseImages, ['golang:1.22', 'gcr.io/distroless/base']);
    assert.deepEqual(docker.data.exposedPorts, ['8080', '9090/udp']);
    const workflow = readManifest(
      'ci-workflow',
      'name: CI\non: push\njobs:\n  lint:\n    runs-on: x\n  test:\n    runs-on: x\n',
    );
    assert.equal(workflow.name, 'CI');
    assert.deepEqual(workflow.data.jobs, ['lint', 'test']);
  });

  it('tsconfig with comments and trailing commas; a malformed manifest says what was wrong', () => {
    const tsconfig = readManifest(
      'tsconfig',
      '{\n  // paths\n  "compilerOptions": { "baseUrl": "src", "paths": { "@/*": ["*"], }, },\n}\n',
    );
    assert.equal(tsconfig.data.baseUrl, 'src');
    assert.deepEqual(tsconfig.data.paths, { '@/*': ['*'] });
    const broken = readManifest('package.json', '{ "name": ');
    assert.equal(broken.name, null);
    assert.match(broken.data.error ?? '', /JSON/);
  });
});
