import { oneLine as clip } from '../sessionFacts';
import type { WhyAnswer } from './why';

type Why = WhyAnswer;

const VIA: Record<Why['via'], string> = {
  commit: 'linked to that commit',
  line: 'they added this line',
  file: 'they changed the file',
  none: '',
};

const day = (ms: number | null) =>
  ms === null ? 'undated' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** The answer of `why` in lines: the blamed commit, then each session with its decisions and commits. */
export function whyLines(a: Why): string {
  const target = a.line === null ? a.file : `${a.file}:${a.line}`;
  const lines = [
    a.commit === null
      ? a.line === null
        ? target
        : `${target}  not committed (or not in git)`
      : `${target}  last changed in ${a.commit.sha.slice(0, 7)} "${a.commit.subject}" (${day(a.commit.committedAt).slice(0, 10)})`,
  ];
  if (a.sessions.length === 0) {
    lines.push('no captured session changed it (engram capture run reads the agents’ sessions)');
    return lines.join('\n');
  }
  lines.push(`${a.sessions.length} session${a.sessions.length === 1 ? '' : 's'} (${VIA[a.via]}):`);
  for (const s of a.sessions) {
    lines.push(`${s.id}  ${s.agent}  ${day(s.startedAt)}${s.branch ? `  branch ${s.branch}` : ''}`);
    if (s.goal !== null) lines.push(`  asked: "${clip(s.goal, 160)}"`);
    if (s.summary !== null) lines.push(`  summary [${s.summary.id}] ${clip(s.summary.content, 400)}`);
    for (const d of s.decisions) lines.push(`  ${d.kind} [${d.id}] ${clip(d.content, 160)}`);
    for (const c of s.commits)
      lines.push(`  commit ${c.sha.slice(0, 7)} "${clip(c.subject, 80)}" (${c.lines} of its lines)`);
  }
  return lines.join('\n');
}
