import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { installEnvironment } from './host/testHost';

// Under `npm run test:vscode` the environment carries the outer npm's settings; the inner npm
// would read them as its own (its user agent said node/v20, and code-server refused to install).
test('the test host installs without the outer npm run’s settings, with Node 24 first on PATH', () => {
  const env = installEnvironment(
    {
      PATH: '/usr/bin',
      HOME: '/root',
      npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64',
      npm_node_execpath: '/usr/bin/node',
      npm_lifecycle_event: 'test:vscode',
      NODE: '/usr/bin/node',
      INIT_CWD: '/work/main',
    },
    '/cache/node24/bin',
  );
  assert.deepEqual(env, { PATH: `/cache/node24/bin${path.delimiter}/usr/bin`, HOME: '/root' });
});
