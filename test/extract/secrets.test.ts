import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EngramError } from '../../engine/errors';
import { redactSecrets } from '../../engine/extract/secrets';
import { assertUntouched, expectRedactions, redacted } from '../support/redactionCases';

// Fake credentials assembled at run time, so that no scanner mistakes this file for a leak.
const GITHUB_PAT = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const GITHUB_FINE = 'github_pat_' + '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN';
const OPENAI = 'sk-proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const ANTHROPIC = 'sk-ant-api03-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-dCbA_98765';
const AWS_ID = 'AKIA' + 'IOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'EXAMPLEKEY';
const SLACK = 'xoxb-' + '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const GOOGLE = 'AIza' + 'SyD-1234567890abcdefghijklmnopqrstu';
const STRIPE = 'sk_live_' + '51H8xYzAbCdEfGhIjKlMnOp';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
  '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0' +
  '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('token shapes', () => {
  const cases: Array<[string, string, string]> = [
    ['AWS access key id', `id ${AWS_ID} here`, 'aws-access-key'],
    ['GitHub classic token', `token ${GITHUB_PAT} here`, 'github-token'],
    ['GitHub fine-grained token', `token ${GITHUB_FINE} here`, 'github-token'],
    ['GitHub OAuth and server tokens', `token ${GITHUB_PAT.replace('ghp_', 'gho_')} here`, 'github-token'],
    ['OpenAI key', `key ${OPENAI} here`, 'openai-key'],
    ['Anthropic key', `key ${ANTHROPIC} here`, 'anthropic-key'],
    ['Slack token', `slack ${SLACK} here`, 'slack-token'],
    ['Google API key', `google ${GOOGLE} here`, 'google-api-key'],
    ['Stripe live key', `stripe ${STRIPE} here`, 'stripe-key'],
    ['JWT', `jwt ${JWT} here`, 'jwt'],
  ];
  for (const [label, text, kind] of cases) {
    test(label, () => {
      const secret = text.split(' ')[1] as string;
      const result = redactSecrets(text);
      assert.equal(result.text, text.replace(secret, `[REDACTED:${kind}]`));
      const start = text.indexOf(secret);
      assert.deepEqual(result.redactions, [{ kind, start, end: start + secret.length }]);
    });
  }

  test('an AWS secret key in an assignment, key kept', () => {
    assert.equal(
      redacted(`aws_secret_access_key = ${AWS_SECRET}`),
      'aws_secret_access_key = [REDACTED:aws-secret-key]',
    );
    assert.equal(
      redacted(`export AWS_SECRET_ACCESS_KEY="${AWS_SECRET}"`),
      'export AWS_SECRET_ACCESS_KEY="[REDACTED:aws-secret-key]"',
    );
  });

  test('a token in an assignment is named by its shape, not by the key', () => {
    assert.equal(redacted(`GITHUB_TOKEN=${GITHUB_PAT}`), 'GITHUB_TOKEN=[REDACTED:github-token]');
  });
});

describe('private keys', () => {
  test('a PEM block is replaced whole, BEGIN to END', () => {
    const block = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEA7bq9',
      'Zm9vYmFyYmF6',
      '-----END RSA PRIVATE KEY-----',
    ].join('\n');
    const text = `key:\n${block}\ndone`;
    const result = redactSecrets(text);
    assert.equal(result.text, 'key:\n[REDACTED:private-key]\ndone');
    assert.deepEqual(result.redactions, [{ kind: 'private-key', start: 5, end: 5 + block.length }]);
  });

  test('OpenSSH and encrypted blocks, and a block inside a JSON string', () => {
    const json =
      '{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n-----END PRIVATE KEY-----\\n"}';
    assert.equal(redacted(json), '{"private_key": "[REDACTED:private-key]\\n"}');
    assert.equal(
      redacted('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA==\n-----END OPENSSH PRIVATE KEY-----'),
      '[REDACTED:private-key]',
    );
  });

  test('a truncated block loses its body but not the prose after it', () => {
    const text = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5\nThat was all.';
    assert.equal(redacted(text), '[REDACTED:private-key]\nThat was all.');
  });

  test('a public key or certificate is not a secret', () => {
    assertUntouched('-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----');
  });
});

describe('headers and connection strings', () => {
  test('a bearer token in an Authorization header keeps the scheme', () => {
    assert.equal(
      redacted('curl -H "Authorization: Bearer abcDEF123456ghiJKL" https://api'),
      'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://api',
    );
    assert.equal(redacted(`Authorization: Bearer ${JWT}`), 'Authorization: Bearer [REDACTED:jwt]');
  });

  test('basic credentials in an Authorization header', () => {
    assert.equal(
      redacted('Authorization: Basic dXNlcjpwYXNzd29yZA=='),
      'Authorization: Basic [REDACTED:basic-auth]',
    );
  });

  test('only the password of a connection string is redacted', () => {
    const text = 'DATABASE_URL=postgres://app:s3cr3t-P4ss@db.internal:5432/app';
    const result = redactSecrets(text);
    assert.equal(result.text, 'DATABASE_URL=postgres://app:[REDACTED:password]@db.internal:5432/app');
    const start = text.indexOf('s3cr3t');
    assert.deepEqual(result.redactions, [{ kind: 'password', start, end: start + 'S3cr3t-P4ss'.length }]);
    assert.equal(
      redacted('mongodb+srv://admin:hunter22@cluster0.example.net/db and redis://:r3dis@cache:6379'),
      'mongodb+srv://admin:[REDACTED:password]@cluster0.example.net/db and redis://:[REDACTED:password]@cache:6379',
    );
  });

  test('a connection string without credentials, or with a placeholder, is left alone', () => {
    assertUntouched('postgres://localhost:5432/app and http://localhost:8080/x@y');
    assertUntouched('postgres://user:${DB_PASSWORD}@db/app and mysql://root:<password>@localhost/db');
  });
});

describe('assignments: the value goes, the key stays', () => {
  const cases: Array<[string, string]> = [
    ['password=hunter22', 'password=[REDACTED:password]'],
    ['api_key=12345', 'api_key=[REDACTED:api-key]'],
    ['{"token": "abc"}', '{"token": "[REDACTED:token]"}'],
    ['DB_PASSWORD=hunter2', 'DB_PASSWORD=[REDACTED:password]'],
    ['password: "correct horse"', 'password: "[REDACTED:password]"'],
    ['db_pass: hunter22', 'db_pass: [REDACTED:password]'],
    [
      '{"password": "hunter22", "apiKey": "abcd1234efgh5678"}',
      '{"password": "[REDACTED:password]", "apiKey": "[REDACTED:api-key]"}',
    ],
    ["$config['client_secret'] => 'Zr8xQ2vL9kW3mN7p';", "$config['client_secret'] => '[REDACTED:secret]';"],
    ['token := "v1.abcdefgh12345678"', 'token := "[REDACTED:token]"'],
    ['SESSION_SECRET=keyboardcat', 'SESSION_SECRET=[REDACTED:secret]'],
    ['x-api-key: 3f2a9c7e1b4d6f80', 'x-api-key: [REDACTED:api-key]'],
    ['private_key = "MIIEvQIBADANBgkq"', 'private_key = "[REDACTED:secret]"'],
    ['mysql -u root --password=Sup3rS3cret db', 'mysql -u root --password=[REDACTED:password] db'],
    ['deploy --token ab12cd34ef56gh78', 'deploy --token [REDACTED:token]'],
    [
      'https://api.example.com/v1?access_token=abcd1234efgh5678&page=2',
      'https://api.example.com/v1?access_token=[REDACTED:token]&page=2',
    ],
    ['I set the password: Tr0ub4dor!3.', 'I set the password: [REDACTED:password].'],
  ];
  for (const [input, expected] of cases) {
    test(input, () => assert.equal(redacted(input), expected));
  }

  test('offsets refer to the original text', () => {
    const text = 'a=1 password=hunter22 token="abcdefgh12345678"';
    const { redactions } = redactSecrets(text);
    assert.deepEqual(
      redactions.map((r) => text.slice(r.start, r.end)),
      ['hunter22', 'abcdefgh12345678'],
    );
    assert.deepEqual(
      redactions.map((r) => r.kind),
      ['password', 'token'],
    );
  });
});

// Fakes of the shapes providers document, assembled at run time like the ones above.
const GITLAB = 'glpat-' + 'Xy12Ab34Cd56Ef78Gh90';
const DIGITALOCEAN = 'dop_v1_' + 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const HUGGINGFACE = 'hf_' + 'AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh';
const DATABRICKS = 'dapi' + '0123456789abcdef0123456789abcdef';
const VALUE = 'Zr8xQ2vL9kW3mN7p';

describe('assignments in more languages, arguments and elements (tuned on gitleaks rules A-M)', () => {
  const cases: Array<[string, string]> = [
    [`API_TOKEN ::= "${VALUE}"`, 'API_TOKEN ::= "[REDACTED:token]"'],
    [`API_TOKEN ?= "${VALUE}"`, 'API_TOKEN ?= "[REDACTED:token]"'],
    [`$apiToken .= "${VALUE}";`, '$apiToken .= "[REDACTED:token]";'],
    [`var apiToken string = "${VALUE}"`, 'var apiToken string = "[REDACTED:token]"'],
    ['apiToken := `' + VALUE + '`', 'apiToken := `[REDACTED:token]`'],
    [`System.setProperty("API_TOKEN", "${VALUE}")`, 'System.setProperty("API_TOKEN", "[REDACTED:token]")'],
    [`<apiToken>\n    ${VALUE}\n</apiToken>`, '<apiToken>\n    [REDACTED:token]\n</apiToken>'],
    [`1passwordToken = "${VALUE}"`, '1passwordToken = "[REDACTED:token]"'],
    [`EZAKToken="${VALUE}"`, 'EZAKToken="[REDACTED:token]"'],
    [
      `curl -u elastic:${VALUE} https://localhost:9200`,
      'curl -u elastic:[REDACTED:password] https://localhost:9200',
    ],
    [`curl -H 'Authorization: ${VALUE}'`, "curl -H 'Authorization: [REDACTED:bearer-token]'"],
    // A scheme-less credential is the header's whole value, whatever characters it uses.
    [
      'curl -H "Authorization: sha256~k3Fq@9=-.zT+/mWp2Lx"',
      'curl -H "Authorization: [REDACTED:bearer-token]"',
    ],
    [`token ${GITLAB} here`, 'token [REDACTED:gitlab-token] here'],
    [`do ${DIGITALOCEAN}`, 'do [REDACTED:digitalocean-token]'],
    [`hf ${HUGGINGFACE}`, 'hf [REDACTED:huggingface-token]'],
    [`DATABRICKS_HOST=x ${DATABRICKS}`, 'DATABRICKS_HOST=x [REDACTED:databricks-token]'],
  ];
  const clean = [
    '<password>Enter your password</password>',
    '<apiKey>YOUR_API_KEY</apiKey>',
    "fields.put('password', 'username');",
    'curl -i -u test:test',
    'curl --user "$GITHUB_USERNAME:$GITHUB_PASSWORD" "$URL"',
    'curl -u username:token',
    'http://assets.example.com/media/video_box.ico-7a388b69018576d24b59331fd60aab0c.png',
  ];
  expectRedactions(cases, clean);
});

const UUID = '12345678-' + 'ABCD-4BCD-9BCD-1234567890AB';
const VAULT_LEGACY = 's.' + 'ZC9Ecf4M5g9o34Q6RkzGsj0z';
const UNSIGNED_JWT = 'eyJhbGciOiJub25lIn0' + '.eyJzdWIiOiJ0ZXN0LXVzZXIifQ.';
const FACEBOOK_APP = '911602140448729' + '|AY-lRJZq9BoDLobvAiP25L7RcMg';

describe('keys, tokens and logins the first pass on gitleaks rules A-M missed', () => {
  const cases: Array<[string, string]> = [
    [`const HEROKU_KEY = "${UUID}"`, 'const HEROKU_KEY = "[REDACTED:api-key]"'],
    [`hubspotKey: '${UUID}'`, "hubspotKey: '[REDACTED:api-key]'"],
    [
      `{"facebook access_token":"${VALUE}","token_type":"bearer"}`,
      '{"facebook access_token":"[REDACTED:token]","token_type":"bearer"}',
    ],
    [`token: ${VAULT_LEGACY}`, 'token: [REDACTED:token]'],
    [`String t = "${UNSIGNED_JWT}";`, 'String t = "[REDACTED:jwt]";'],
    [`app ${FACEBOOK_APP} here`, 'app [REDACTED:facebook-token] here'],
    [`curl -u ":${VALUE}" https://localhost:9200`, 'curl -u ":[REDACTED:password]" https://localhost:9200'],
    [`curl -u "${VALUE}:" https://localhost:9200`, 'curl -u "[REDACTED:api-key]:" https://localhost:9200'],
    [`curl --user kevin:'${VALUE}' -iX PATCH`, "curl --user kevin:'[REDACTED:password]' -iX PATCH"],
    [
      `curl -H "Authorization: Api-Token ${VALUE}" https://x.test`,
      'curl -H "Authorization: Api-Token [REDACTED:bearer-token]" https://x.test',
    ],
  ];
  const clean = [
    `const requestId = "${UUID}"`,
    'cacheKey: "users-by-team", sortKey = "createdAt", primaryKey: "id"',
    'token: config.auth.token, secret: this.handleOAuth2',
    '"display name": "Ada", "sort key": "name"',
    'curl -u "$USER:$PASS" https://x.test and curl --user "{{ user }}:{{ password }}"',
    'curl -u admin: https://x.test',
    'jq .payload.eyJhbGciOiJub25lIn0.',
  ];
  expectRedactions(cases, clean);
});

describe('keys the gitleaks rules did not teach (tuned on trufflehog detector tests A-M)', () => {
  const DRAWN_LOWER = 'wdvnousa87acfxp9' + 'ioasrea4tbeasrfa';
  const DRAWN_MIXED = 'rc6iLoUEFGGAWNLsuBJn' + 'msh4tZB-oCxcDUmc45HIPcuiQ';
  const LONG_TOKEN = '0.AXEAFN5Pl6TDG0ibA8' + '_OGCw6B-kFbFJo'.repeat(90);
  const WEBHOOK =
    'https://discord.com/api/webhooks/144147826297622273/' + 'Rz9B09dB7cXxtldzXXfmJY0opIzgeANtGJw08vx5PXrP';
  const cases: Array<[string, string]> = [
    // A plain `key` name: a value drawn at random, not only a UUID, is a key.
    [`[DEBUG] Using Key=${DRAWN_LOWER}`, '[DEBUG] Using Key=[REDACTED:api-key]'],
    [`apiMaticKey := "${DRAWN_MIXED}"`, 'apiMaticKey := "[REDACTED:api-key]"'],
    // An element named for a secret holding several words: the drawn ones go.
    [`<secret>{AQAAABAAA ${DRAWN_LOWER}}</secret>`, '<secret>{AQAAABAAA [REDACTED:secret]}</secret>'],
    // Quoted values longer than 1 KB (Azure refresh tokens, large JWTs).
    [`"refresh_token": "${LONG_TOKEN}"`, '"refresh_token": "[REDACTED:token]"'],
    [`hook: ${WEBHOOK}`, 'hook: [REDACTED:discord-webhook]'],
    // Found once, redacted everywhere in the text: the echo below names no key.
    [
      `export API_TOKEN=${DRAWN_LOWER}\necho ${DRAWN_LOWER} | tee log`,
      'export API_TOKEN=[REDACTED:token]\necho [REDACTED:token] | tee log',
    ],
  ];
  const clean = [
    'cacheKey = "user_profile_cache_v2", sortKey: "release-2024.01.15"',
    'key = 4b1dXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    'primaryKey: "tenant_id_and_created_at_index"',
    '<secret>{{ vault lookup here }}</secret>',
    'password: abc and later abc again',
  ];
  expectRedactions(cases, clean);
});

describe('no false positives', () => {
  const clean = [
    'The password is required and the token expires after an hour.',
    'Token: we need a new one before Friday.',
    'The secret: nobody reads the docs.',
    'Add a password field and a tokenizer to the form.',
    'const tokenizer = new Tokenizer(options);',
    'passwordField: HTMLInputElement; passwordHash = hash(input);',
    'interface Login { password: string; token?: string; apiKey: Secret }',
    'const token = await getToken(user);',
    'const password = form.values.password;',
    'token = newToken',
    'max_tokens: 1000, token_count = 12, token_type: "Bearer"',
    'password: ${DB_PASSWORD}',
    'password: "***" and token: <your-token> and secret: "xxxx"',
    "env: { GITHUB_TOKEN: '${{ secrets.GITHUB_TOKEN }}' }",
    'Fixed in commit e83c5163316f89bfbde7d9ab23ca2e25604af290 on main.',
    'Request 123e4567-e89b-12d3-a456-426614174000 failed.',
    'See src/auth/token/refreshToken.ts and /home/me/.ssh/known_hosts.',
    'A risk-free approach; use sk-learn or task-manager-api-client for that.',
    'Send the Authorization header with every request.',
    'The Bearer scheme is described in RFC 6750.',
    'password == input && token !== undefined',
    'mysql --password --verbose db',
  ];
  for (const text of clean) {
    test(text, () => assertUntouched(text));
  }
});

describe('results', () => {
  test('redacting twice changes nothing the second time', () => {
    const once = redacted(
      `key ${OPENAI}, password=hunter22, postgres://u:p4ssw0rd@h/db, Bearer abcdefgh12345678ijkl`,
    );
    const twice = redactSecrets(once);
    assert.equal(twice.text, once);
    assert.deepEqual(twice.redactions, []);
  });

  test('redactions come in text order and rebuild the output from the original', () => {
    const text = `first ${GITHUB_PAT} then password=hunter22 and ${AWS_ID} last`;
    const { text: output, redactions } = redactSecrets(text);
    const starts = redactions.map((r) => r.start);
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => a - b),
    );
    let rebuilt = '';
    let last = 0;
    for (const r of redactions) {
      rebuilt += text.slice(last, r.start) + `[REDACTED:${r.kind}]`;
      last = r.end;
    }
    assert.equal(rebuilt + text.slice(last), output);
  });

  test('a text without secrets comes back as is', () => {
    const result = redactSecrets('Nothing to see here.');
    assert.deepEqual(result, { text: 'Nothing to see here.', redactions: [] });
  });

  test('a non-string is rejected with INVALID_INPUT', () => {
    assert.throws(
      () => redactSecrets(undefined as unknown as string),
      (error: unknown) => EngramError.is(error, 'INVALID_INPUT'),
    );
  });

  test('pathological inputs finish without catastrophic backtracking', () => {
    const size = 100_000;
    const repeat = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const units = [
      'a',
      '-----BEGIN PRIVATE KEY-----',
      '-----END PRIVATE KEY-----',
      'password=',
      'password: ',
      'eyJ',
      'eyJaaaaaaa.',
      'Bearer ',
      'Authorization: Bearer ',
      'a://b:c',
      'a://b:c@',
      'sk-',
      'ghp_',
      '"',
      '"password": "',
      'AKIA',
      'x=',
      '--token ',
      'xoxb-',
      'secret_access_key=',
      'A',
      '<apiToken>',
      '<apiToken>abc123def456',
      '"api_token", ',
      'TOKEN ::= ',
      'glpat-',
      'curl -u a:',
      'Authorization: ',
    ];
    for (const unit of units) {
      const text = repeat(unit);
      const started = process.cpuUsage();
      redactSecrets(text);
      const { user, system } = process.cpuUsage(started);
      const cpuMs = (user + system) / 1000;
      // A generous guard on this process's CPU time, not wall time (other test files and processes
      // share the two cores): catastrophic backtracking takes minutes, a linear scan milliseconds.
      assert.ok(cpuMs < 2000, `${JSON.stringify(unit)}: ${cpuMs.toFixed(0)} ms of CPU`);
    }
  });
});
