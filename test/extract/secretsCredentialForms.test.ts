import { describe } from 'node:test';
import { expectRedactions } from '../support/redactionCases';

// Fake credentials assembled at run time, so that no scanner mistakes this file for a leak. The
// forms were learnt from trufflehog's detector tests A-M (test/bench/redaction/trufflehogBench.ts).
const DRAWN_MIXED = 'rc6iLoUEFGGAWNLsuBJn' + 'msh4tZB';
const LOWER_NO_DIGIT = 'seugeupfkn' + 'prstoe';
const MIXED_NO_DIGIT = 'hfCnuVcYOgiRj' + 'lDEmAoRbN';
const SIGNATURE = 'WSdF9YeZhvrbs%2B%2B1f8ZdDBz' + 'Ee7fBJ%2BenuaXQ%2BJ9WOw0%3D';
const HEX = '2afddb813193eb9d' + '3b5bd99bf5d834cd';
const BASE64 = 'ZUfake+eKo3qNxLDfake/6vqj' + 'Otr4fa6u5wShfakes8=';

describe('credentials in URL queries', () => {
  expectRedactions(
    [
      // A SAS URL or a workflow trigger: the signature is the credential.
      [
        `https://acct.blob.core.windows.net/c?sp=r&sv=2022-11-02&sr=c&sig=${SIGNATURE}`,
        'https://acct.blob.core.windows.net/c?sp=r&sv=2022-11-02&sr=c&sig=[REDACTED:url-credential]',
      ],
      [
        `base_url: "https://api.example.com/v1/user?key=${LOWER_NO_DIGIT}"`,
        'base_url: "https://api.example.com/v1/user?key=[REDACTED:url-credential]"',
      ],
      [
        `GET /example?tokenkey=${LOWER_NO_DIGIT}&page=2`,
        'GET /example?tokenkey=[REDACTED:url-credential]&page=2',
      ],
      [
        `/workflows/invoke?api-version=1&signature=${DRAWN_MIXED}`,
        '/workflows/invoke?api-version=1&signature=[REDACTED:url-credential]',
      ],
    ],
    [
      'https://example.com/search?key=value&page=2',
      'https://example.com/search?q=monkey&turkey=roasted+with+herbs',
      'https://example.com/docs?api-key=$API_KEY&sig=${SIGNATURE}',
    ],
  );
});

describe('drawn pieces of a key, and keys drawn without digits', () => {
  expectRedactions(
    [
      // A pair (`user:key`) or a tail after the key: a drawn piece makes the whole value a key.
      [`[DEBUG] Using KEY=${DRAWN_MIXED}:c*X`, '[DEBUG] Using KEY=[REDACTED:api-key]'],
      [`[DEBUG] Using Key=myuser:${DRAWN_MIXED}`, '[DEBUG] Using Key=[REDACTED:api-key]'],
      // An element's drawn word wrapped in punctuation or carrying a foreign character.
      [`<secret>{AQAAABAAA _${DRAWN_MIXED}=}</secret>`, '<secret>{AQAAABAAA [REDACTED:secret]}</secret>'],
      [`<secret>{AQAAABAAA ${DRAWN_MIXED}%gtj}</secret>`, '<secret>{AQAAABAAA [REDACTED:secret]}</secret>'],
      // Mixed case changing all along, no digit: drawn all the same.
      [`convertkit_key: "${MIXED_NO_DIGIT}"`, 'convertkit_key: "[REDACTED:api-key]"'],
      // A key's name glued into one word: `hapikey`, Duo's `skey`.
      [`const hapikey = '${HEX}';`, "const hapikey = '[REDACTED:api-key]';"],
      [`DUO_SKEY=${DRAWN_MIXED}`, 'DUO_SKEY=[REDACTED:api-key]'],
    ],
    [
      'cacheKey: "user:1234:profile", sortKey = "2024-01-15T10:00:00Z"',
      'key: "XMLHttpRequestEventTarget", primaryKey = "getUserNameFromDatabase"',
      'monkey = "bananas-and-more-bananas", hotkey: "ctrl+shift+p"',
    ],
  );
});

describe('credentials in prose and under a credentials name', () => {
  expectRedactions(
    [
      [
        `Your API2CART key is ${HEX}, which you will need`,
        'Your API2CART key is [REDACTED:api-key], which you will need',
      ],
      [`brandfetch credentials: ${BASE64}`, 'brandfetch credentials: [REDACTED:api-key]'],
    ],
    [
      'The key is missing from the map, and the password is required.',
      'fetch(url, { credentials: "include" }); credentials: same-origin',
    ],
  );
});

describe('keys issued as a short name, a separator and a long drawn body', () => {
  const HEX_BODY = 'f799335093a74648' + 'b24ae95e4c1fcab0';
  const BASE36_BODY = '5gykyl1b-wgrq-41lc' + '-z6q1-h7zn5fdlcybw';
  expectRedactions(
    [
      [`export SERVICE_KEY_A=lsv9_pt_${HEX_BODY}_3ced253912`, 'export SERVICE_KEY_A=[REDACTED:token]'],
      [`GET /v1/keys/pri_${HEX_BODY} HTTP/1.1`, 'GET /v1/keys/[REDACTED:token] HTTP/1.1'],
      [`launched with api-${BASE36_BODY}`, 'launched with [REDACTED:token]'],
      [String.raw`"text":"key:\npri_${HEX_BODY}"`, String.raw`"text":"key:\n[REDACTED:token]"`],
    ],
    [
      // Ids of agents' transcripts are shorter; a UUID after a name is an id; digests name their algorithm.
      '{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","tool_use_id":"toolu_01A09q90qw90lq917835lq9x"}',
      'session-123e4567-e89b-12d3-a456-426614174000.jsonl and call_AbC123dEf456GhI789jKl012',
      `"integrity": "sha512-${'Qm9vbGVhbiBkZXRlY3Rpb24gb2YgYmFzZTY0IHN0cmluZ3MgaW4g'}"`,
      `key = "sk-${'A'.repeat(48)}"`,
      `/tmp/engram-capture-bench-${HEX_BODY}/db0/memory.db`,
      'cli/.git/entire-sessions/85f99978-1851-42ee-9aac-0c9fe2e61b70.json',
      // Ids and assignments found in real transcripts (entireio/cli's Claude Code sessions).
      'model_session_id=d69e1edc-3d9d-4300-87ee-bb95323e000b and write_file-1768510312836-c85bc7ab6bf4a8',
      String.raw`"id":"x\n2026-01-13-d488d465-0877-473a-8dc1-8a3e0c9c6f91"`,
      // A base64url SHA-256 digest whose head reads as a mixed-case name (the drift history's key was one).
      'doLg_NXSP0aMhY3' + 'WkpicyAGoqh0eplZ9PyV-_36VVWk',
    ],
  );
});

describe("Go's test report and a transcript's punctuation are no password", () => {
  expectRedactions(
    [
      [
        `--- PASS: TestLogin (0.00s)\npass: ${DRAWN_MIXED}`,
        '--- PASS: TestLogin (0.00s)\npass: [REDACTED:password]',
      ],
    ],
    [
      '=== RUN   TestParseStatus_Empty\n--- PASS: TestParseStatus_Empty (0.00s)\nPASS\nok  \tgithub.com/x/cli\t0.01s',
      // In a transcript's JSON: a string's closing quote, or an escaped line break, after `pass:`.
      String.raw`{"text":"Let me verify tests and lint pass:"}],"stop_reason":null}`,
      String.raw`{"text":"All 6 tests pass:\n\n1. **Both suites**"}`,
    ],
  );
});

describe('a secret found once is redacted elsewhere only as a whole word', () => {
  expectRedactions(
    [
      [
        'export DB_PASSWORD=postgres1\nUsing the postgres1x driver with postgres1.',
        'export DB_PASSWORD=[REDACTED:password]\nUsing the postgres1x driver with [REDACTED:password].',
      ],
    ],
    [],
  );
});
