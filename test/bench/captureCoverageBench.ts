// Parse coverage of the capture readers on real sessions that people committed to public
// repositories (issue 20, section 8): for each session file, the records it splits into, how many
// each reader understood, found of a type it does not know, or could not parse, per record type,
// and whether the reader threw (it must never). The files stay out of this repository: they are read
// from bare mirrors of their repositories (a `fetch` of github:<owner>/<name> gives
// <mirrors>/<owner>+<name>/repo), at the commit named below. Claude Code's and Aider's real
// sessions are measured by entireLinkBench.ts and commitLinkBench.ts.
// Usage: node --import tsx test/bench/captureCoverageBench.ts --mirrors DIR (or ENGRAM_CAPTURE_MIRRORS=DIR)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CaptureAgent } from '../../engine/capture/events';
import { isRecord } from '../../engine/capture/events';
import { FORMATS, emptyReport } from '../../engine/capture/ingest';
import type { SourceReport } from '../../engine/capture/ingest';
import { formatOf } from '../../engine/capture/readers/captureFormat';
import { machine, round } from './stats';

interface RealSession {
  agent: CaptureAgent;
  repo: string;
  commit: string;
  path: string;
  /** The name the agent gives such a file (the readers take the session's id and shape from it). */
  as: string;
}

/** Every real session file found (docs/capture-formats.md, "Parse coverage on real sessions", says how). */
export const REAL_SESSIONS: RealSession[] = [
  {
    agent: 'codex',
    repo: 'pinouchon/rtchess',
    commit: '4272a68afdf63f79a34d5956e90413609dbcbeff',
    path: 'dev_history/exported-session.jsonl',
    as: '/h/.codex/sessions/2025/11/22/rollout-2025-11-22T21-45-35-019aad50-a7e6-7422-b7a8-0b384290624f.jsonl',
  },
  {
    agent: 'cline',
    repo: 'haram-333/fineye',
    commit: '3f3dddc79fb3ef725d4c07c4d95de21f2e9b3fb6',
    path: 'ui_messages.json',
    as: '/g/saoudrizwan.claude-dev/tasks/1767644899093/ui_messages.json',
  },
  {
    agent: 'cline',
    repo: 'Jeehunter/mcp-vscode-server',
    commit: 'f6859c745693e458bcec24a06f8d1df5f8178b00',
    path: 'ui_messages.json',
    as: '/g/saoudrizwan.claude-dev/tasks/1760534080239/ui_messages.json',
  },
  {
    agent: 'copilot',
    repo: 'bunty1981/AI-copilot-vibe-app',
    commit: 'e9d1151df1094824640c922f5a417215cc23917c',
    path: 'copilot-chat.json',
    as: '/c/User/workspaceStorage/0a1b/chatSessions/copilot-chat.json',
  },
];

/** Ingest's report of the files of one format (excluded stays 0: a reader alone excludes nothing). */
interface Coverage extends SourceReport {
  files: number;
  /** Files whose reader threw (the target is none). */
  crashed: number;
  /** Record type -> status -> count. */
  types: Map<string, Map<string, number>>;
  events: Map<string, number>;
}

/** A record's type as its format names it: `type` (with the payload's or Cline's `say`/`ask`), a role, a log kind. */
export function recordType(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return '(not JSON)';
  }
  if (!isRecord(value)) return '(not an object)';
  const sub = isRecord(value['payload']) ? value['payload']['type'] : (value['say'] ?? value['ask']);
  if (typeof value['type'] === 'string')
    return typeof sub === 'string' ? `${value['type']}:${sub}` : value['type'];
  if (typeof value['role'] === 'string') return `role:${value['role']}`;
  if (typeof value['kind'] === 'number') return `kind:${value['kind']}`;
  if ('requestId' in value || 'message' in value) return 'request';
  const keys = Object.keys(value);
  return keys.length === 0 ? '{}' : `{${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''}}`;
}

function blob(mirrors: string, session: RealSession): Buffer | undefined {
  const gitDir = path.join(mirrors, session.repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) return undefined;
  const run = spawnSync(
    'git',
    ['--git-dir', gitDir, 'cat-file', 'blob', `${session.commit}:${session.path}`],
    {
      maxBuffer: 1 << 30,
    },
  );
  return run.status === 0 ? run.stdout : undefined;
}

function measure(bytes: Buffer, session: RealSession, into: Coverage): void {
  into.files++;
  into.bytes += bytes.length;
  const reader = formatOf(FORMATS[session.agent], session.as);
  try {
    const state = reader.initialState(session.as);
    const { records } = reader.split(bytes, 0);
    for (const record of records) {
      const parsed = reader.parse(record.text, state);
      into.records++;
      into[parsed.status]++;
      const type = recordType(record.text);
      const statuses = into.types.get(type) ?? new Map<string, number>();
      statuses.set(parsed.status, (statuses.get(parsed.status) ?? 0) + 1);
      into.types.set(type, statuses);
      for (const event of parsed.events) into.events.set(event.kind, (into.events.get(event.kind) ?? 0) + 1);
    }
  } catch (error) {
    into.crashed++;
    console.log(`  ${session.repo}:${session.path} threw: ${String(error)}`);
  }
}

function main(): void {
  const at = process.argv.indexOf('--mirrors');
  const mirrors = at === -1 ? process.env['ENGRAM_CAPTURE_MIRRORS'] : process.argv[at + 1];
  if (!mirrors) {
    console.log(
      'capture parse coverage: no --mirrors DIR (or ENGRAM_CAPTURE_MIRRORS) given, nothing measured',
    );
    return;
  }
  const started = process.cpuUsage();
  const byAgent = new Map<CaptureAgent, Coverage>();
  for (const session of REAL_SESSIONS) {
    const bytes = blob(mirrors, session);
    if (!bytes) {
      console.log(
        `  missing: ${session.repo}@${session.commit.slice(0, 10)}:${session.path} (fetch github:${session.repo})`,
      );
      continue;
    }
    const coverage = byAgent.get(session.agent) ?? {
      ...emptyReport({ agent: session.agent, path: session.repo }),
      files: 0,
      crashed: 0,
      types: new Map(),
      events: new Map(),
    };
    byAgent.set(session.agent, coverage);
    measure(bytes, session, coverage);
  }
  const cpu = process.cpuUsage(started);
  console.log(
    `capture parse coverage on real public sessions, ${machine()}, load ${os
      .loadavg()
      .map((l) => round(l))
      .join(' ')}, ${round((cpu.user + cpu.system) / 1000)} ms CPU`,
  );
  console.log('| format | files | MB | records | understood | unknown type | malformed | reader threw |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [agent, c] of byAgent) {
    console.log(
      `| ${agent} | ${c.files} | ${round(c.bytes / 2 ** 20)} | ${c.records} | ${c.understood} | ${c.unknown} | ${c.malformed} | ${c.crashed} |`,
    );
  }
  for (const [agent, c] of byAgent) {
    const types = [...c.types].sort((a, b) => sum(b[1]) - sum(a[1]));
    const listed = types.map(
      ([type, s]) => `${type} ${[...s].map(([k, n]) => (k === 'understood' ? n : `${n} ${k}`)).join('/')}`,
    );
    console.log(`  ${agent} record types: ${listed.join(', ')}`);
    console.log(`  ${agent} events: ${[...c.events].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

if (require.main === module) main();
