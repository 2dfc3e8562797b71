// Observations from real public sessions (issue 20 section 3): per session captureCoverageBench.ts
// reads from bare mirrors, what the rules write (summary, stated conventions, corrections,
// recovered commands, absences) and what the model path would send (requests, characters, items
// left out of the budget). No language model runs here: a model's observations are counted only
// when ENGRAM_SUMMARY_URL names a real endpoint (the tests use a stand-in, never this bench).
// Usage: node --import tsx test/bench/captureObservationBench.ts --mirrors DIR (or ENGRAM_CAPTURE_MIRRORS=DIR)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ingestSource } from '../../engine/capture/ingest';
import { observeWithModel } from '../../engine/capture/observations/observeWithModel';
import { writeSessionLessons } from '../../engine/capture/sessionLessons';
import { writeSessionSummaries } from '../../engine/capture/sessionSummary';
import { writeStatedConventions } from '../../engine/capture/statedConventions';
import { openAiSummariser, summaryEndpointFromEnv } from '../../engine/lifecycle/openAiSummariser';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { REAL_SESSIONS } from './captureCoverageBench';
import { machine, round } from './stats';

const RULES = ['summary', 'stated', 'correction', 'recovery', 'negative'] as const;

async function main(): Promise<void> {
  const at = process.argv.indexOf('--mirrors');
  const mirrors = at === -1 ? process.env['ENGRAM_CAPTURE_MIRRORS'] : process.argv[at + 1];
  if (!mirrors) {
    console.log('capture observations: no --mirrors DIR (or ENGRAM_CAPTURE_MIRRORS) given, nothing measured');
    return;
  }
  const endpoint = summaryEndpointFromEnv(process.env);
  const started = process.cpuUsage();
  const rows: string[] = [];
  for (const session of REAL_SESSIONS) {
    const gitDir = path.join(mirrors, session.repo.replace('/', '+'), 'repo');
    const blob = spawnSync(
      'git',
      ['--git-dir', gitDir, 'cat-file', 'blob', `${session.commit}:${session.path}`],
      {
        maxBuffer: 1 << 30,
      },
    );
    if (blob.status !== 0) {
      rows.push(`| ${session.repo} | missing (fetch github:${session.repo}) |`);
      continue;
    }
    const file = path.join(tempDir(), session.as);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, blob.stdout);
    const t = await openTestHost();
    const store = t.host.store;
    const report = await ingestSource(store, { agent: session.agent, path: file }, { root: '/workspace' });
    const ids = report.sessions;
    await writeSessionSummaries(store, ids);
    await writeStatedConventions(store, ids);
    await writeSessionLessons(store, ids);
    const count = (rule: string) =>
      store.read(
        (r) =>
          r.value<number>(
            rule === 'summary'
              ? "SELECT count(*) FROM memories WHERE kind = 'summary' AND superseded_at IS NULL"
              : 'SELECT count(*) FROM memories WHERE superseded_at IS NULL AND tags LIKE ?',
            rule === 'summary' ? [] : [`%"${rule}"%`],
          ) ?? 0,
      );
    const plan = await t.call('captureObservationRequests', { session: ids[0] });
    const sent = plan.requests.reduce((n, r) => n + r.request.texts.reduce((m, x) => m + x.length, 0), 0);
    const leftOut = plan.requests
      .flatMap((r) => r.request.texts)
      .map((x) => /^\[(\d+) turns and commands left out\]$/.exec(x)?.[1])
      .reduce((n, x) => n + Number(x ?? 0), 0);
    let model = 'no model';
    if (endpoint) {
      const run = await observeWithModel(
        {
          requests: (params) => t.call('captureObservationRequests', params),
          apply: (params) => t.call('captureObservations', params),
        },
        openAiSummariser(endpoint),
        { session: ids[0] as string },
      );
      model = run.outcomes
        .map((o) => (o.by === 'model' ? `${o.written} written` : `rules: ${o.reason}`))
        .join('; ');
    }
    rows.push(
      `| ${session.agent} ${session.repo} | ${ids.length} | ${RULES.map(count).join(' | ')} | ${plan.requests.length} | ${sent} | ${leftOut} | ${model} |`,
    );
    await t.host.close();
  }
  const cpu = process.cpuUsage(started);
  console.log(
    `capture observations on real public sessions, ${machine()}, load ${os
      .loadavg()
      .map((l) => round(l))
      .join(' ')}, ${round((cpu.user + cpu.system) / 1000)} ms CPU`,
  );
  console.log(
    '| session | sessions | summary | stated | correction | recovery | negative | model requests | chars sent | items left out | model observations |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
}

if (require.main === module) void main();
