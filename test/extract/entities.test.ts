import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EngramError } from '../../engine/errors';
import { extractEntities } from '../../engine/extract/entities';
import type { EntityType, ExtractedEntity } from '../../engine/extract/entities';

function entity(text: string, key: string): ExtractedEntity {
  const found = extractEntities(text).find((e) => e.key === key);
  assert.ok(found, `no entity with key ${JSON.stringify(key)} in ${JSON.stringify(text)}`);
  return found;
}

function keysOf(text: string, type?: EntityType): string[] {
  return extractEntities(text)
    .filter((e) => type === undefined || e.type === type)
    .map((e) => e.key);
}

function assertNone(text: string, key: string): void {
  assert.equal(
    extractEntities(text).find((e) => e.key === key),
    undefined,
    `unexpected entity ${JSON.stringify(key)} in ${JSON.stringify(text)}`,
  );
}

/** The text at each span of the entity. */
function mentions(text: string, e: ExtractedEntity): string[] {
  return e.spans.map(([s, end]) => text.slice(s, end));
}

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

describe('dates', () => {
  test('ISO and written forms share an ISO key', () => {
    const text =
      'Released 2024-05-07; the RC was 7 May 2023, the beta May 8, 2023, the alpha 9th of May 2023.';
    for (const key of ['2024-05-07', '2023-05-07', '2023-05-08', '2023-05-09'])
      assert.equal(entity(text, key).type, 'date');
  });

  test('a time in front belongs to the mention but not the key', () => {
    const text = '8:56 pm on 20 July, 2023 Caroline: I went to a support group.';
    const e = entity(text, '2023-07-20');
    assert.equal(e.name, '2023-07-20');
    assert.deepEqual(mentions(text, e), ['8:56 pm on 20 July, 2023']);
  });

  test('the same day written twice is one entity', () => {
    const text = 'On 20 July 2023 we shipped; 2023-07-20 was a Thursday.';
    assert.equal(entity(text, '2023-07-20').spans.length, 2);
  });

  test('months with a year, days without one', () => {
    assert.equal(entity('It started in May 2023.', '2023-05').type, 'date');
    assert.equal(entity('Her birthday is on July 4.', '--07-04').type, 'date');
  });

  test('relative and impossible dates are not extracted', () => {
    assert.deepEqual(keysOf('yesterday, last week, tomorrow, 2023-02-30, 31 June 2023', 'date'), []);
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

describe('names and people', () => {
  test('capitalised names, multi-word names and possessive disease names', () => {
    const text = "Caroline met Melanie Smith; her mom has Alzheimer's.";
    assert.equal(entity(text, 'caroline').type, 'name');
    assert.equal(entity(text, 'melanie smith').name, 'Melanie Smith');
    assert.equal(entity(text, 'alzheimer').name, "Alzheimer's");
  });

  test('stopwords, months, weekdays and sentence-initial verbs are not names', () => {
    const text =
      'The team met. However, I think so. On Monday in May we fixed it. Fixed the parser. Added tests. Finally done.';
    assert.deepEqual(keysOf(text, 'name'), []);
  });

  test('a possessive and a plain mention merge under the plain name', () => {
    const text = "Caroline's talk went well. Everyone thanked Caroline.";
    const e = entity(text, 'caroline');
    assert.equal(e.name, 'Caroline');
    assert.deepEqual(e.aliases, ["Caroline's"]);
    assert.equal(e.spans.length, 2);
  });

  test('speaker labels, honorifics, relations and speech verbs make a person', () => {
    const text = 'Caroline: Hey!\nI met Dr. Alvarez and my best friend Priya; Sam said hi.';
    for (const key of ['caroline', 'alvarez', 'priya', 'sam'])
      assert.equal(entity(text, key).type, 'person', key);
  });

  test('a person is named without the possessive', () => {
    const e = entity("I visited my friend Anna's house.", 'anna');
    assert.equal(e.type, 'person');
    assert.equal(e.name, 'Anna');
  });

  test('non-ASCII names', () => {
    assert.equal(entity('We asked Zoë and José García.', 'josé garcía').type, 'name');
  });

  test('capitalised words in code are not names', () => {
    assert.deepEqual(keysOf('Use `new Promise(Resolve)` here.', 'name'), []);
  });
});

/**
 * Issue 19: words a position capitalises, taken for names ("Session" as a person, "Touches", "Add",
 * "Pr" in the Graph). The texts are the kinds of memory that produced them: a scanned symbol's
 * summary with its doc comment, a glossary kept with Remember Selection, a merge note, a quick note.
 */
describe('ordinary words capitalised by their position are not names', () => {
  test('a doc comment that opens with a verb: "Touches the session cookie"', () => {
    const text =
      'export function refreshSession(token: string): Promise<void> (function in src/auth/session.ts:12). Touches the session cookie and extends its expiry';
    assertNone(text, 'touches');
    assert.equal(entity(text, 'src/auth/session.ts').type, 'file');
  });

  test('a change note: "Touches src/api/routes.ts and src/api/server.ts"', () => {
    const text = 'Renamed the router to apiRouter. Touches src/api/routes.ts and src/api/server.ts';
    assertNone(text, 'touches');
    assert.equal(entity(text, 'src/api/routes.ts').type, 'file');
  });

  test('a glossary line is not a speaker: "Session: a signed cookie that holds the user id"', () => {
    const text =
      'Session: a signed cookie that holds the user id\nExpiration: twelve hours, set in src/auth/login.ts';
    assertNone(text, 'session');
    assertNone(text, 'expiration');
  });

  test('a word after an opening bracket or a table bar: "(Add retry to the fetch client)"', () => {
    assertNone('Merged #42 (Add retry to the fetch client) into main after review.', 'add');
    assertNone('| Change | Owner |\n| Add retry | Caroline |', 'add');
  });

  test('a word without a vowel is an abbreviation: "Pr #118 bumps zod"', () => {
    assertNone('Pr #118 bumps zod to 3.23 and regenerates the lockfile.', 'pr');
    assertNone('Ask Caroline before merging any Pr that touches the schema.', 'pr');
  });

  test('names in the same places still are names', () => {
    const text =
      'Caroline decided that sessions last 12 hours.\nMelanie: I moved the config.\n(Priya agreed.) | Sam | Dr. Alvarez reviewed it.\nJennings said the build is green.';
    for (const key of ['caroline', 'melanie', 'priya', 'sam', 'alvarez', 'jennings']) entity(text, key);
    assert.equal(entity(text, 'melanie').type, 'person');
  });
});

describe('merging and weights', () => {
  test('keys are lower-cased and unique', () => {
    const found = extractEntities('Docker, docker and DOCKER; src/A.ts and src/a.ts.');
    const keys = found.map((e) => e.key);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(keys.every((k) => k === k.toLowerCase().trim()));
    assert.equal(entity('Docker, docker and DOCKER.', 'docker').spans.length, 3);
  });

  test('every span shows the name or one of the aliases', () => {
    const text =
      'Caroline said getUserName() in src/a.ts:3 broke `npm run build` on 7 May 2023; see https://x.io/a. ' +
      'process.env.API_KEY and Postgres; npm i -D @types/node.';
    for (const e of extractEntities(text)) {
      for (const m of mentions(text, e))
        assert.ok(m === e.name || e.aliases.includes(m), `${m} not in ${e.name}`);
    }
  });

  test('weights lie in 0..1 and come sorted, most salient first', () => {
    const found = extractEntities(
      'Fix src/a.ts, then src/a.ts again with Docker on 2024-05-07 for Caroline.',
    );
    assert.ok(found.length >= 4);
    for (const e of found) assert.ok(e.weight > 0 && e.weight <= 1, `${e.key} ${e.weight}`);
    const weights = found.map((e) => e.weight);
    assert.deepEqual(
      weights,
      [...weights].sort((a, b) => b - a),
    );
  });

  test('a repeated entity outweighs one mentioned once', () => {
    const text = 'Docker broke. Redis was fine. Docker again, and Docker once more.';
    assert.ok(entity(text, 'docker').weight > entity(text, 'redis').weight);
  });

  test('an earlier mention outweighs a later one of the same type', () => {
    const text = 'src/first.ts is changed, and a long explanation follows before src/second.ts is named.';
    assert.ok(entity(text, 'src/first.ts').weight > entity(text, 'src/second.ts').weight);
  });

  test('a file outweighs a date at the same place and count', () => {
    assert.ok(entity('src/a.ts', 'src/a.ts').weight > entity('2024-05-07', '2024-05-07').weight);
  });
});

describe('inputs', () => {
  test('an empty text has no entities', () => {
    assert.deepEqual(extractEntities(''), []);
  });

  test('a non-string is rejected with INVALID_INPUT', () => {
    assert.throws(
      () => extractEntities(42 as unknown as string),
      (error: unknown) => EngramError.is(error, 'INVALID_INPUT'),
    );
  });

  test('redaction markers produce no entities, but a URL around one stays a URL', () => {
    const text = 'token [REDACTED:github-token] and postgres://app:[REDACTED:password]@db/app';
    const found = extractEntities(text);
    assert.deepEqual(
      found.map((e) => e.type),
      ['url'],
    );
    assert.equal(found[0]?.name, 'postgres://app:[REDACTED:password]@db/app');
  });

  test('pathological inputs finish without catastrophic backtracking', () => {
    const size = 100_000;
    const repeat = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const units = [
      'a',
      'a/',
      'a.',
      '/',
      '\\',
      'Ab ',
      'A_',
      '`a',
      'a(',
      'a::',
      'a->',
      '$A',
      '%A',
      '1 May ',
      '2024-05-07',
      '```\n',
      'http://',
      'http://x)',
      '@a/',
      'a@b.',
      'npm install ',
      '$ npm test\n',
      'import a\n',
      "from 'a' ",
      'process.env.',
      'A_B=',
      'Zoë ’',
      '𝒜b ',
      '~/',
      'C:\\',
      'a:',
      '8:56 pm on ',
      "a'",
      '-a',
    ];
    for (const unit of units) {
      const text = repeat(unit);
      const started = process.cpuUsage();
      extractEntities(text);
      const { user, system } = process.cpuUsage(started);
      const cpuMs = (user + system) / 1000;
      // A generous guard on this process's CPU time, not wall time (other test files and processes
      // share the two cores): catastrophic backtracking takes minutes, a linear scan milliseconds.
      assert.ok(
        cpuMs < 2000,
        `${JSON.stringify(unit)} x ${size / unit.length}: ${cpuMs.toFixed(0)} ms of CPU`,
      );
    }
  });
});
