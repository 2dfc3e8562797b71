import type { Memory } from '../../engine/index';
import { isNegative, NEGATIVE_LABEL } from '../../engine/index';
import type { DriftFinding } from '../driftReport';
import { memorySummary, memoryTitle, staleLabel } from '../memoryText';

/**
 * What `@engram` says about a memory, in the words the tree views use (kind, age, source, "stale
 * since <commit>"), never an id or a score. No `vscode` here, so the words are unit-tested in plain
 * Node; chatMarkdown.ts wraps them in trusted MarkdownStrings.
 */

/** The one command chat Markdown may run: chat renders no `engram-memory:` links, only commands. */
export const OPEN_MEMORY_COMMAND = 'engram.openMemory';

/** How many characters of a memory's words a chat list item shows after its first line. */
const DETAIL = 300;

/**
 * Memory content is untrusted (agents and files wrote it): it goes into chat as escaped text, and
 * only the frame around it (links Engram builds itself) is Markdown.
 */
export function escapedText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`).replace(/\r?\n/g, '  \n');
}

/** A link target that opens the memory's document (named by its words) when clicked in chat. */
export function openMemoryLink(id: string): string {
  return `command:${OPEN_MEMORY_COMMAND}?${encodeURIComponent(JSON.stringify([id]))}`;
}

/** The words after the first line (the title), on one line; all of them when the title was cut. */
function detailOf(memory: Pick<Memory, 'content'>, titleCut: boolean): string {
  const content = memory.content.trim();
  const afterFirstLine = content.split(/\r?\n/).slice(1).join(' ');
  const detail = (titleCut ? content : afterFirstLine).replace(/\s+/g, ' ').trim();
  return detail.length > DETAIL ? `${detail.slice(0, DETAIL - 1)}…` : detail;
}

export interface ChatItemOptions {
  /** `1.` for a numbered list (the memories a model's answer cites by number); `-` otherwise. */
  marker?: string;
  /** The commit that made the memory drift, when the drift check found it stale. */
  stale?: { commit?: string };
}

/**
 * One memory as a chat list item: its first line, linked to its document, then kind, age and
 * source (and pinned, stale), then the rest of its words. `- [Retry once](…) · error pattern · 2 days ago`
 */
export function memoryChatItem(memory: Memory, now: number, options: ChatItemOptions = {}): string {
  const title = memoryTitle(memory, 100);
  const about = [memorySummary(memory, now)];
  if (memory.pinned) about.push('pinned');
  // Said first: the title alone ("Redis cache") reads like a thing that exists.
  if (isNegative(memory)) about.unshift(NEGATIVE_LABEL);
  if (options.stale) about.unshift(staleLabel(options.stale.commit));
  const detail = detailOf(memory, title.endsWith('…'));
  const link = `[${escapedText(title || 'memory')}](${openMemoryLink(memory.id)} "Open this memory")`;
  return `${options.marker ?? '-'} ${link} · ${escapedText(about.join(' · '))}${detail ? `  \n   ${escapedText(detail)}` : ''}\n`;
}

/** A stale memory of a drift check: its words linked, what changed, and the commit that changed it. */
export function driftChatItem(finding: DriftFinding): string {
  const words = finding.content.replace(/\s+/g, ' ').trim();
  const title = words.length > 100 ? `${words.slice(0, 99)}…` : words;
  const e = finding.evidence;
  const what =
    finding.status === 'stale'
      ? staleLabel(e.commit)
      : `${finding.status === 'moved' && e.target ? `moved to ${e.target}` : finding.status}${e.commit ? ` since ${e.commit.slice(0, 7)}` : ''}`;
  const commit = [e.message ? `"${e.message}"` : '', e.date?.slice(0, 10) ?? ''].filter(Boolean).join(', ');
  const link = `[${escapedText(title || 'memory')}](${openMemoryLink(finding.memoryId)} "Open this memory")`;
  return `- ${link} · ${escapedText([what, finding.reason, commit].filter(Boolean).join(' · '))}\n`;
}
