import type { MethodResult } from '../../engine/index';
import { escapedText } from './chatText';

type WhyAnswer = MethodResult<'why'>;

const day = (ms: number | null) => (ms === null ? 'undated' : new Date(ms).toISOString().slice(0, 10));
const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * The captured sessions behind a file or line as Markdown (escaped text, no links): the blamed
 * commit, then per session what was asked, the decisions stated and the commits that carry it.
 */
export function whySessionsMarkdown(answer: WhyAnswer): string {
  const where = answer.line === null ? answer.file : `${answer.file}:${answer.line}`;
  const lines: string[] = [];
  lines.push(
    answer.commit === null
      ? `Agent sessions behind ${escapedText(where)}:`
      : `${escapedText(where)} last changed in \`${answer.commit.sha.slice(0, 7)}\` ${escapedText(`"${answer.commit.subject}"`)}; the agent sessions behind it:`,
    '',
  );
  for (const s of answer.sessions) {
    const asked = s.goal === null ? '' : `: ${escapedText(`"${clip(s.goal, 160)}"`)}`;
    lines.push(`- ${escapedText(`${s.agent} session of ${day(s.startedAt)}`)}${asked}`);
    for (const d of s.decisions) lines.push(`  - ${escapedText(`${d.kind}: ${clip(d.content, 200)}`)}`);
    for (const c of s.commits)
      lines.push(
        `  - commit \`${c.sha.slice(0, 7)}\` ${escapedText(`"${clip(c.subject, 80)}" (${c.lines} lines)`)}`,
      );
  }
  return `${lines.join('\n')}\n\n`;
}
