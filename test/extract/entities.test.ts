// Entities of code and tooling in a memory's text: files, symbols, packages, tools, URLs,
// environment variables, commands. Names and dates: entityNames.test.ts; weights: entityWeights.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractEntities } from '../../engine/extract/entities';
import { assertNone, entity, keysOf, mentions } from './entityQueries';

describe('files and directories', () => {
  test('a relative path keeps its name and span without the :line suffix', () => {
    const text = 'The bug is in src/auth/login.ts:42 when the token expires.';
    const e = entity(text, 'src/auth/login.ts');
    assert.equal(e.type, 'file');
    assert.equal(e.name, 'src/auth/login.ts');
    assert.deepEqual(e.spans, [[14, 31]]);
  });

  test('line:column and #L suffixes are not part of the name either', () => {
    const text = 'see lib/a.py:10:5 and engine/store/sqlite.ts#L10-L20';
    assert.deepEqual(mentions(text, entity(text, 'lib/a.py')), ['lib/a.py']);
    assert.deepEqual(mentions(text, entity(text, 'engine/store/sqlite.ts')), ['engine/store/sqlite.ts']);
  });

  test('dot-relative, parent-relative, absolute and Windows paths', () => {
    const text = 'Compare ./x.js with ../a/b.py, /home/x/y.ts and C:\\x\\y.cs before merging.';
    assert.equal(entity(text, 'x.js').name, './x.js');
    assert.equal(entity(text, '../a/b.py').type, 'file');
    assert.equal(entity(text, '/home/x/y.ts').type, 'file');
    const windows = entity(text, 'c:/x/y.cs');
    assert.equal(windows.name, 'C:\\x\\y.cs');
    assert.deepEqual(mentions(text, windows), ['C:\\x\\y.cs']);
  });

  test('sentence punctuation after a path is dropped', () => {
    const text = 'I edited src/index.ts.';
    assert.deepEqual(mentions(text, entity(text, 'src/index.ts')), ['src/index.ts']);
  });

  test('bare file names with a known extension and config dotfiles are files', () => {
    const text = 'Update package.json, README.md and .env, and add .gitignore.';
    for (const key of ['package.json', 'readme.md', '.env', '.gitignore'])
      assert.equal(entity(text, key).type, 'file');
  });

  test('a trailing slash or a project root makes a directory', () => {
    const text = 'Move it from src/auth/ to lib/session and check /usr/local/bin.';
    const auth = entity(text, 'src/auth');
    assert.equal(auth.type, 'directory');
    assert.equal(auth.name, 'src/auth/');
    assert.equal(entity(text, 'lib/session').type, 'directory');
    assert.equal(entity(text, '/usr/local/bin').type, 'directory');
  });

  test('./src/a.ts and src/a.ts are the same file', () => {
    const text = 'Open ./src/a.ts; src/a.ts has the fix.';
    const e = entity(text, 'src/a.ts');
    assert.equal(e.spans.length, 2);
    assert.deepEqual(e.aliases, ['src/a.ts']);
  });

  test('prose with slashes and dots is not a path', () => {
    const text =
      'Use and/or, 1/2 cup, TCP/IP, 05/07/2024, v1.2.3, e.g. this, the /api/users route, client/server.';
    assert.deepEqual(keysOf(text, 'file'), []);
    assert.deepEqual(keysOf(text, 'directory'), []);
  });

  test('method calls and tools that look like file names are not files', () => {
    const text = 'It calls console.log and res.json(body) on Node.js.';
    assert.deepEqual(keysOf(text, 'file'), []);
    assert.equal(entity(text, 'console.log').type, 'symbol');
    assert.equal(entity(text, 'node.js').type, 'tool');
  });
});

describe('symbols', () => {
  test('a call and a bare mention of the same function merge, keeping both forms', () => {
    const text = 'getUserName() returns null when getUserName is called twice.';
    const e = entity(text, 'getusername');
    assert.equal(e.type, 'symbol');
    assert.equal(e.name, 'getUserName');
    assert.deepEqual(e.aliases, ['getUserName()']);
    assert.deepEqual(mentions(text, e), ['getUserName()', 'getUserName']);
  });

  test('member and scope access, backticked identifiers, camel, Pascal and snake case', () => {
    const text =
      'UserService.findById and Repo::save call `useState`; parseConfig uses HttpClient and load_user_data.';
    for (const key of [
      'userservice.findbyid',
      'repo::save',
      'usestate',
      'parseconfig',
      'httpclient',
      'load_user_data',
    ]) {
      assert.equal(entity(text, key).type, 'symbol', key);
    }
  });

  test('an upper-case constant without an environment cue is a symbol', () => {
    assert.equal(entity('Raise MAX_RETRIES to 5.', 'max_retries').type, 'symbol');
  });

  test('plural markers, abbreviations, keywords and brands are not symbols', () => {
    const text = 'Check the file(s), e.g. the i.e. case; if (x) works on my iPhone and macOS with YouTube.';
    assert.deepEqual(keysOf(text, 'symbol'), []);
  });

  test('a bare domain is a URL, not a member access', () => {
    assert.equal(entity('Deployed to example.com today.', 'example.com').type, 'url');
  });
});

describe('packages', () => {
  test('scoped names anywhere', () => {
    const text = 'Bump @types/node and @modelcontextprotocol/sdk.';
    assert.equal(entity(text, '@types/node').type, 'package');
    assert.equal(entity(text, '@modelcontextprotocol/sdk').type, 'package');
  });

  test('npm install names its packages without versions and ends at prose', () => {
    const text = 'Run npm install -D lodash@4.17.21 @scope/pkg@^1 express and then restart the server.';
    const e = entity(text, 'lodash');
    assert.equal(e.type, 'package');
    assert.deepEqual(mentions(text, e), ['lodash']);
    assert.equal(entity(text, '@scope/pkg').type, 'package');
    assert.equal(entity(text, 'express').type, 'package');
    assertNone(text, 'then');
    assertNone(text, 'restart');
    const command = extractEntities(text).find((c) => c.type === 'command');
    assert.equal(command?.name, 'npm install -D lodash@4.17.21 @scope/pkg@^1 express');
  });

  test('pnpm, yarn, pip, cargo and go installs', () => {
    const text = [
      'pnpm add zod',
      'yarn add react-query',
      'pip install "requests>=2.31" flask[async] -r requirements.txt',
      'cargo add serde',
      'go get github.com/spf13/cobra@v1.8.0',
    ].join('\n');
    for (const key of ['zod', 'react-query', 'requests', 'flask', 'serde', 'github.com/spf13/cobra']) {
      assert.equal(entity(text, key).type, 'package', key);
    }
    assertNone(text, 'requirements.txt'.replace('.txt', ''));
    assert.equal(entity(text, 'requirements.txt').type, 'file');
  });

  test('import, require and from specifiers; relative ones are files', () => {
    const text = [
      "import { useState } from 'react';",
      "const fp = require('lodash/fp');",
      "import { login } from './auth/login';",
      'from fastapi.routing import APIRouter',
      'import numpy as np',
    ].join('\n');
    assert.equal(entity(text, 'react').type, 'package');
    const lodash = entity(text, 'lodash');
    assert.equal(lodash.type, 'package');
    assert.deepEqual(lodash.aliases, ['lodash/fp']);
    assert.equal(entity(text, 'auth/login').type, 'file');
    assert.equal(entity(text, 'fastapi').type, 'package');
    assert.equal(entity(text, 'numpy').type, 'package');
  });

  test('go get with a prose object is not an install', () => {
    assert.deepEqual(keysOf('Let us go get coffee.'), []);
  });
});

describe('tools', () => {
  test('well-known tools match case-insensitively as whole words, with a canonical name', () => {
    const text = 'We run git and Docker; postgres and Redis sit behind kubernetes.';
    assert.equal(entity(text, 'git').type, 'tool');
    assert.equal(entity(text, 'docker').name, 'Docker');
    const pg = entity(text, 'postgresql');
    assert.equal(pg.name, 'PostgreSQL');
    assert.deepEqual(pg.aliases, ['postgres']);
    assert.equal(entity(text, 'kubernetes').name, 'Kubernetes');
    assertNone('a digital camera', 'git');
  });

  test('multi-word tools are one entity', () => {
    const text = 'The GitHub Actions workflow deploys to Google Cloud.';
    assert.deepEqual(mentions(text, entity(text, 'github actions')), ['GitHub Actions']);
    assert.equal(entity(text, 'google cloud').type, 'tool');
    assertNone(text, 'github');
  });

  test('tools that are also English words need code or a mid-sentence capital', () => {
    assert.deepEqual(keysOf('Make sure you go to the store and react calmly.', 'tool'), []);
    assert.deepEqual(keysOf('Go to settings.', 'tool'), []);
    assert.equal(entity('The service is written in Go and React.', 'go').type, 'tool');
    assert.equal(entity('Then call `curl` on it.', 'curl').type, 'tool');
  });
});

describe('URLs', () => {
  test('sentence punctuation and unbalanced brackets are not part of a URL', () => {
    const text =
      'See https://github.com/acme/engram/pull/42. (Also https://en.wikipedia.org/wiki/Foo_(bar).)';
    assert.equal(entity(text, 'https://github.com/acme/engram/pull/42').type, 'url');
    assert.equal(
      entity(text, 'https://en.wikipedia.org/wiki/foo_(bar)').name,
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    );
  });

  test('nothing inside a URL is extracted on its own', () => {
    const text = 'https://github.com/acme/app/blob/main/src/auth/login.ts#L10';
    assert.deepEqual(
      extractEntities(text).map((e) => e.type),
      ['url'],
    );
  });

  test('www. addresses and scp-style git remotes', () => {
    assert.equal(entity('Visit www.example.com for docs.', 'www.example.com').type, 'url');
    const text = 'Clone git@github.com:acme/engram.git first.';
    assert.deepEqual(mentions(text, entity(text, 'git@github.com:acme/engram.git')), [
      'git@github.com:acme/engram.git',
    ]);
  });

  test('an unknown scheme or a scheme glued to a word is not a URL', () => {
    assert.deepEqual(keysOf('Use foo://bar and x_http://y.', 'url'), []);
  });
});

describe('environment variables', () => {
  test('upper snake names with an environment cue, process.env, $ and ${} references', () => {
    const text = 'Set DATABASE_URL, read process.env.NODE_ENV, then use $HOME and ${API_TOKEN}.';
    assert.equal(entity(text, 'database_url').type, 'env');
    const nodeEnv = entity(text, 'node_env');
    assert.equal(nodeEnv.name, 'NODE_ENV');
    assert.deepEqual(nodeEnv.aliases, ['process.env.NODE_ENV']);
    assert.deepEqual(mentions(text, entity(text, 'home')), ['$HOME']);
    assert.equal(entity(text, 'api_token').type, 'env');
  });

  test('a shell assignment names the variable only', () => {
    const text = 'PORT=8080 node server.js';
    assert.deepEqual(mentions(text, entity(text, 'port')), ['PORT']);
  });
});

describe('commands', () => {
  test('backticked commands of known programs', () => {
    const text = 'Run `npm run build`, then `pnpm test` and `make lint`.';
    for (const key of ['npm run build', 'pnpm test', 'make lint'])
      assert.equal(entity(text, key).type, 'command', key);
  });

  test('prose commands, with the tool inside reported too', () => {
    const text = 'Please run npm run build before you push.';
    assert.deepEqual(mentions(text, entity(text, 'npm run build')), ['npm run build']);
    assert.equal(entity(text, 'npm').type, 'tool');
  });

  test('prompt lines and shell blocks', () => {
    const text = ['$ docker compose up -d', '```bash', 'git status', 'cargo test --all', '```'].join('\n');
    for (const key of ['docker compose up -d', 'git status', 'cargo test --all']) {
      assert.equal(entity(text, key).type, 'command', key);
    }
  });

  test('a quoted environment value is one word; `pnpm test:unit` is not `pnpm test`', () => {
    const text = 'E.g. `FILTER="includes paths" pnpm test:integration`, or run pnpm test:unit first.';
    assert.deepEqual(keysOf(text, 'command'), ['filter="includes paths" pnpm test:integration']);
    assert.deepEqual(keysOf('Run pnpm test: it builds first.', 'command'), ['pnpm test']);
  });

  test('a lone program name or an English phrase is not a command', () => {
    assert.deepEqual(keysOf('Make sure `make` works and go build something great.', 'command'), []);
  });
});
