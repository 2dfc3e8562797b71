import type { MethodResult } from '../../engine/index';
import { AGENT_NAMES } from './capturePrompt';

type Transcript = MethodResult<'captureTranscript'>;

function time(at: number | null): string {
  return at === null ? '' : new Date(at).toISOString().replace('T', ' ').slice(0, 16);
}

/** A captured session as Markdown: its turns as stored (redacted), each with the tools it called. */
export function sessionTranscriptText(t: Transcript): string {
  const s = t.session;
  const lines = [
    `# ${AGENT_NAMES[s.agent] ?? s.agent} session ${s.id}`,
    '',
    [s.branch ? `branch ${s.branch}` : '', s.model ?? '', `${time(s.startedAt)} to ${time(s.endedAt)}`]
      .filter(Boolean)
      .join(' · '),
    '',
  ];
  for (const turn of t.turns) {
    lines.push(`## ${turn.role}${turn.at === null ? '' : ` · ${time(turn.at)}`}`, '', turn.text, '');
    if (turn.tools?.length) lines.push(`_tools: ${turn.tools.join(', ')}_`, '');
  }
  if (t.total > t.turns.length) lines.push(`_${t.total - t.turns.length} more turns not shown_`, '');
  return lines.join('\n');
}
