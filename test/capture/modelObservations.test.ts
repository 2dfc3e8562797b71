import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { observeWithModel } from '../../engine/capture/observations/observeWithModel';
import type { ObservationRunReport } from '../../engine/capture/observations/observeWithModel';
import { writeStatedConventions } from '../../engine/capture/statedConventions';
import { openAiSummariser } from '../../engine/lifecycle/openAiSummariser';
import { startChatCompletionServer } from '../support/chatCompletionServer';
import type { ChatCompletionServer, ChatReply } from '../support/chatCompletionServer';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { GROUNDED_ANSWER, checkoutSession } from './sessionTranscripts';

/*
 * Issue 20 section 3: a captured session's observations written by a language model (a real HTTP
 * server on 127.0.0.1 speaking the chat-completions API stands in for it), redacted both ways,
 * checked against the session, marked model-written, and the rule-based memories alone, with the
 * reason recorded, whenever the answer is unfit.
 */
const ROOT = '/home/dev/checkout';
const SESSION = 'c0ffee00-1111-4a2b-9c3d-00000000cafe';
let model: ChatCompletionServer;
let reply: ChatReply;

before(async () => {
  model = await startChatCompletionServer(() => reply);
});
after(() => model.close());
beforeEach(() => {
  model.requests.length = 0;
  reply = { text: GROUNDED_ANSWER };
});

async function capturedCheckout(minutesAgo = 60): Promise<TestHost> {
  const t = await openTestHost();
  const file = path.join(tempDir(), `${SESSION}.jsonl`);
  writeFileSync(file, checkoutSession(ROOT, SESSION, minutesAgo));
  await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: ROOT });
  await writeStatedConventions(t.host.store, [SESSION]);
  return t;
}

/** Asks the model about SESSION by name, or (`waiting`) about the sessions waiting for it. */
function observe(t: TestHost, which: 'named' | 'waiting' = 'named'): Promise<ObservationRunReport> {
  const session = which === 'named' ? SESSION : undefined;
  return observeWithModel(
    {
      requests: (params) => t.call('captureObservationRequests', params),
      apply: (params) => t.call('captureObservations', params),
    },
    openAiSummariser({ url: model.url, model: 'fake-gpt' }),
    session === undefined ? {} : { session },
  );
}

interface Row {
  content: string;
  kind: string;
  layer: string;
  trust: string;
  tags: string;
  context: string | null;
}

function sessionMemories(t: TestHost): Row[] {
  return t.host.store.read((r) =>
    r.all<Row>(
      `SELECT content, kind, layer, trust, tags, context FROM memories
       WHERE session = ? AND superseded_at IS NULL ORDER BY content`,
      [SESSION],
    ),
  );
}

const modelWritten = (t: TestHost) => sessionMemories(t).filter((m) => m.trust === 'model');

function observationEvents(t: TestHost): Array<Record<string, unknown>> {
  return t.host.store.read((r) =>
    r
      .all<{ data: string }>("SELECT data FROM events WHERE type = 'capture-observations' AND session = ?", [
        SESSION,
      ])
      .map((e) => JSON.parse(e.data) as Record<string, unknown>),
  );
}

describe('capture: model-written observations', () => {
  it('writes grounded observations marked model-written, trust model, redacted both ways', async () => {
    const t = await capturedCheckout();
    const report = await observe(t);
    assert.equal(report.asked, 1);
    assert.equal(model.requests.length, 1);
    const sent = JSON.stringify(model.requests[0]!.body.messages);
    assert.ok(!sent.includes('dev.lead@example.com'), 'the e-mail address is redacted before sending');
    assert.match(sent, /\[REDACTED:email\]/);
    assert.match(sent, /Command: npm test -- checkout \(exit 1\)/);
    assert.match(sent, /Files the session touched: .*src\/checkout\.ts/);
    const written = modelWritten(t);
    assert.equal(written.length, 2, JSON.stringify(report));
    const fix = written.find((m) => m.kind === 'error-pattern')!;
    assert.match(fix.content, /^Safari dates in checkout: The checkout test failed on Safari/);
    assert.equal(fix.layer, 'procedural');
    assert.deepEqual(JSON.parse(fix.tags), ['capture', 'observation', 'model-written', 'claude-code']);
    assert.match(
      fix.context ?? '',
      /written by openai-compatible:fake-gpt-served \(model-written\); files: src\/checkout\.ts/,
    );
    const decision = written.find((m) => m.kind === 'decision')!;
    assert.ok(
      !decision.content.includes('example.com'),
      'the e-mail the model repeated is redacted before storing',
    );
    assert.match(decision.content, /\[REDACTED:email\]/);
    // The rule-based convention of the same session is still there, at its own trust.
    assert.ok(
      sessionMemories(t).some((m) => m.trust === 'ingest' && m.content.startsWith('Use dayjs, not moment')),
    );
    assert.deepEqual(
      observationEvents(t).map((e) => [e['by'], e['model'], e['written']]),
      [['model', 'openai-compatible:fake-gpt-served', 2]],
    );
    await t.host.close();
  });

  const unfit: Array<[string, ChatReply, RegExp]> = [
    [
      'an HTTP error',
      { status: 500, body: '{"error":"overloaded"}' },
      /openai-compatible: POST \S+ returned 500/,
    ],
    ['prose instead of JSON', { text: 'The session fixed the checkout test.' }, /not the JSON asked for/],
    ['an empty answer', { text: '  ' }, /the model wrote no text/],
    [
      'an oversize answer',
      {
        text: JSON.stringify({ observations: [{ kind: 'fix', title: 'x', text: 'checkout '.repeat(600) }] }),
      },
      /over the limit of 4000/,
    ],
    ['nothing worth keeping', { text: '{"observations": []}' }, /found nothing worth keeping/],
    [
      'an observation the session never said',
      {
        text: JSON.stringify({
          observations: [
            {
              kind: 'learned',
              title: 'Deploys',
              text: 'The team deploys with Helm charts to a Kubernetes cluster in Frankfurt.',
            },
          ],
        }),
      },
      /not grounded in the session \(0 of its \d+ words/,
    ],
    [
      'a file the session never touched',
      {
        text: JSON.stringify({
          observations: [
            {
              kind: 'fix',
              title: 'Checkout dates',
              text: 'The checkout test passes with dayjs.utc.',
              files: ['src/payments.ts'],
            },
          ],
        }),
      },
      /names a file the session never mentioned \(src\/payments\.ts\)/,
    ],
  ];
  for (const [name, answer, reason] of unfit) {
    it(`keeps the rule-based memories alone, with the reason, on ${name}`, async () => {
      const t = await capturedCheckout();
      reply = answer;
      const report = await observe(t);
      assert.equal(report.outcomes.length, 1);
      const outcome = report.outcomes[0]!;
      assert.equal(outcome.by, 'rules');
      assert.match(outcome.reason ?? '', reason);
      assert.equal(modelWritten(t).length, 0);
      assert.ok(
        sessionMemories(t).some((m) => m.trust === 'ingest'),
        'the rules still gave their memories',
      );
      const events = observationEvents(t);
      assert.equal(events.length, 1);
      assert.equal(events[0]!['by'], 'rules');
      assert.match(String(events[0]!['reason']), reason);
      await t.host.close();
    });
  }

  it('keeps the grounded observations of an answer and says why the others were refused', async () => {
    const t = await capturedCheckout();
    const grounded = JSON.parse(GROUNDED_ANSWER) as { observations: unknown[] };
    reply = {
      text: `\`\`\`json\n${JSON.stringify({
        observations: [
          grounded.observations[0],
          {
            kind: 'learned',
            title: 'Billing',
            text: 'Invoices are stored in Postgres and mailed nightly by a cron worker.',
          },
        ],
      })}\n\`\`\``,
    };
    const report = await observe(t);
    const outcome = report.outcomes[0]!;
    assert.equal(outcome.by, 'model');
    assert.equal(outcome.written, 1);
    assert.equal(outcome.refused.length, 1);
    assert.match(outcome.refused[0]!, /^observation 2: not grounded/);
    assert.equal(modelWritten(t).length, 1);
    await t.host.close();
  });

  it('asks nothing about a session that grew since the model was asked, and records no basis', async () => {
    const t = await capturedCheckout();
    const plan = await t.call('captureObservationRequests', { session: SESSION });
    const request = plan.requests[0]!;
    const outcomes = await t.call('captureObservations', {
      provided: [{ session: SESSION, basis: 'not-this-state', text: GROUNDED_ANSWER, model: 'm' }],
    });
    assert.notEqual(request.request.basis, 'not-this-state');
    assert.equal(outcomes[0]!.by, 'rules');
    assert.match(outcomes[0]!.reason ?? '', /changed since the model was asked/);
    assert.equal(modelWritten(t).length, 0);
    assert.equal(observationEvents(t).length, 0);
    await t.host.close();
  });

  it('is off by default: an unnamed run asks no model; opted in, a quiet session once per state', async () => {
    const t = await capturedCheckout(60);
    const off = await observe(t, 'waiting');
    assert.equal(off.mode, 'rules');
    assert.equal(model.requests.length, 0);
    await t.call('captureObservationMode', { mode: 'model' });
    const on = await observe(t, 'waiting');
    assert.equal(on.asked, 1);
    const again = await observe(t, 'waiting');
    assert.equal(again.asked, 0, 'the same state of the session is not asked about twice');
    assert.equal(model.requests.length, 1);
    await t.host.close();
  });

  it('waits while a session is live (quiet for less than ten minutes)', async () => {
    const t = await capturedCheckout(2);
    await t.call('captureObservationMode', { mode: 'model' });
    const report = await observe(t, 'waiting');
    assert.equal(report.asked, 0);
    assert.equal(model.requests.length, 0);
    await t.host.close();
  });

  it('purging the session deletes its model-written observations and their events', async () => {
    const t = await capturedCheckout();
    await observe(t);
    assert.equal(modelWritten(t).length, 2);
    await t.call('capturePurge', { session: SESSION });
    assert.equal(modelWritten(t).length, 0);
    assert.equal(observationEvents(t).length, 0);
    await t.host.close();
  });
});
