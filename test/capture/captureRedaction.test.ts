import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactPersonal, redactRecord } from '../../engine/capture/captureRedaction';
import { FAKE_SECRETS } from '../support/fakeSecrets';

test('private spans are dropped whole, an unclosed one to the end', () => {
  assert.equal(redactPersonal('keep <private>my salary is 9000</private> this'), 'keep  this');
  assert.equal(redactPersonal('a <PRIVATE>x\ny</PRIVATE> b <private>rest'), 'a  b ');
});

test('e-mail addresses and phone numbers become typed placeholders', () => {
  const cases: Array<[string, string]> = [
    ['mail jane.doe+test@mail.example.co.uk now', 'mail [REDACTED:email] now'],
    ['call +1 415 555 0100 or +44 20 7946 0958', 'call [REDACTED:phone] or [REDACTED:phone]'],
    ['office (415) 555-0100, cell 415.555.0199', 'office [REDACTED:phone], cell [REDACTED:phone]'],
    ['+49-30-1234567', '[REDACTED:phone]'],
  ];
  for (const [input, expected] of cases) assert.equal(redactPersonal(input), expected, input);
});

test('what only looks like personal data is kept', () => {
  const kept = [
    'git@github.com:org/repo.git',
    'npm i @scope/pkg@1.2.3 and lodash@4.17.21',
    'commit 4e1f0c9a2b7d3e6f8a9b0c1d2e3f4a5b6c7d8e9f at 2026-03-02T09:00:01.000Z',
    'session 0199aa00-2222-7000-8000-000000000002',
    'version 10.2.3, port 8080, pid 31337, ip 192.168.100.200',
    'tests: 1234 passed in 567.89 s, offset 123-456',
    'a + 12 items',
    '@decorator.name and user@localhost',
  ];
  for (const text of kept) assert.equal(redactPersonal(text), text, text);
});

test('a record loses the project secret patterns and personal data, and stays parseable JSON', () => {
  for (const secret of FAKE_SECRETS) {
    const line = JSON.stringify({
      type: 'assistant',
      message: {
        content: [
          { type: 'tool_use', input: { command: `deploy --token ${secret.text} --to ops@example.com` } },
        ],
      },
    });
    const stored = redactRecord(line);
    assert.ok(!stored.toLowerCase().includes(secret.needle.toLowerCase()), `${secret.kind} in ${stored}`);
    assert.ok(!stored.includes('ops@example.com'));
    assert.doesNotThrow(() => JSON.parse(stored));
  }
  const assignment = redactRecord(JSON.stringify({ env: { DB_PASSWORD: 'hunter2-horse' } }));
  assert.ok(!assignment.includes('hunter2-horse'), assignment);
  assert.equal(redactRecord('#### my number is +1 415 555 0100'), '#### my number is [REDACTED:phone]');
});

test('binary payloads (pasted images) are dropped from records; ordinary long text is kept', () => {
  const image = 'iVBORw0KGgo' + 'AAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ'.repeat(200);
  const line = JSON.stringify({
    type: 'user',
    message: {
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } },
        { type: 'text', text: 'what is wrong in this screenshot? '.repeat(60) },
      ],
    },
  });
  const stored = redactRecord(line);
  assert.ok(stored.length < 4000, `${stored.length} characters kept`);
  const parsed = JSON.parse(stored) as {
    message: { content: Array<{ source?: { data: string }; text?: string }> };
  };
  assert.equal(parsed.message.content[0]?.source?.data, `[binary: ${image.length} characters dropped]`);
  assert.equal(parsed.message.content[1]?.text, 'what is wrong in this screenshot? '.repeat(60));
  const dataUrl = JSON.stringify({ type: 'input_image', image_url: `data:image/png;base64,${image}` });
  assert.match(redactRecord(dataUrl), /\[binary: \d+ characters dropped\]/);
});
