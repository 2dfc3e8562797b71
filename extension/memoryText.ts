import type { Annotation, Memory, MemoryVersion, MethodResult } from '../engine/index';

/**
 * How a memory reads to a person: its kind, its age, where it came from. No `vscode` here, so the
 * words are unit-tested in plain Node; memoryPresentation.ts puts them into tree rows and tooltips.
 */

/** `1 memory`, `2 memories`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The first line of the content, cut to fit a tree row, a quick pick or a tab title. */
export function memoryTitle(memory: Pick<Memory, 'content'>, max = 80): string {
  const firstLine = memory.content.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return firstLine.length > max ? `${firstLine.slice(0, max - 1)}…` : firstLine;
}

/** `error-pattern` → `error pattern`: kinds as words, not identifiers. */
export function kindLabel(kind: string): string {
  // "negative" alone reads like a mood; the kind is knowledge of what is absent or forbidden.
  if (kind === 'negative') return 'negative knowledge';
  return kind.replace(/-/g, ' ');
}

const UNITS: Array<[string, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** `just now`, `5 minutes ago`, `2 days ago`: the age of a moment, in the largest whole unit. */
export function ageOf(at: number, now: number): string {
  const elapsed = now - at;
  if (elapsed < 60_000) return 'just now';
  for (const [unit, ms] of UNITS) {
    const n = Math.floor(elapsed / ms);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** Who wrote it: a person in this editor or the CLI (`you`), an agent or the scanner, an import. */
export function authorOf(memory: Pick<Memory, 'agent' | 'trust'>): string {
  if (memory.agent === 'engram-scanner') return 'a scan of the code';
  if (memory.agent) return memory.agent;
  if (memory.trust === 'human') return 'you';
  if (memory.trust === 'consolidation') return 'consolidation';
  if (memory.trust === 'model') return 'consolidation (model-written)';
  return memory.trust === 'ingest' ? 'an import' : 'an agent';
}

/** `src/auth/login.ts:3-5`, `commit 1a2b3c4`, a URL, or undefined when the memory names no source. */
export function sourceLabel(memory: Pick<Memory, 'source' | 'context'>): string | undefined {
  const source = memory.source;
  if (source?.file) {
    // Remember Selection writes `file:first-last` as the context: the lines a person thinks in.
    const lines = memory.context?.startsWith(`${source.file}:`)
      ? memory.context.slice(source.file.length)
      : '';
    return `${source.file}${/^:\d+(-\d+)?$/.test(lines) ? lines : ''}`;
  }
  if (source?.commit) return `commit ${source.commit.slice(0, 7)}`;
  return source?.url ?? undefined;
}

/** `stale since 1a2b3c4` when the commit that made a memory drift is known, else `stale`. */
export function staleLabel(commit: string | undefined): string {
  return commit ? `stale since ${commit.slice(0, 7)}` : 'stale';
}

/**
 * A tree row's or quick pick's description: kind, age and source; never an id or a score. Each
 * thing is said once per row: a scanned summary's title already names its file and language, and
 * its tags (`code`, `module`) its kind, so those are left out of the description.
 */
export function memorySummary(memory: Memory, now: number): string {
  const kind = kindLabel(memory.kind);
  const parts = [kind, ageOf(memory.validFrom, now)];
  if (memory.status !== 'active') parts.unshift(memory.status);
  const title = memoryTitle(memory);
  const source = sourceLabel(memory);
  if (source && !(memory.source?.file && title.includes(memory.source.file))) parts.push(source);
  const said = new Set(`${kind} ${title}`.toLowerCase().split(/[^\p{L}\p{N}_-]+/u));
  const tags = memory.tags.filter((t) => !said.has(t.toLowerCase()));
  if (tags.length > 0) parts.push(tags.map((t) => `#${t}`).join(' '));
  // Only its agent and the owner see a private memory (engine/memory/visibility.ts): say which agent.
  if (memory.scope === 'private') parts.push(memory.agent ? `private to ${memory.agent}` : 'private');
  return parts.join(' · ');
}

const when = (ms: number, now: number) =>
  `${ageOf(ms, now)} (${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')})`;

/** What a version's change was, in words. */
const CHANGES: Record<string, string> = {
  created: 'Remembered',
  edited: 'Edited',
  invalidated: 'Marked no longer true',
  superseded: 'Replaced by a newer memory',
  forgotten: 'Forgotten',
  restored: 'Restored',
  archived: 'Archived',
  expired: 'Expired',
  imported: 'Imported',
  merged: 'Merged with a restatement',
  promoted: 'Promoted to another layer',
};

/**
 * The document Open Memory shows: the memory's words first, then a few lines about it in plain
 * language, its history and notes, and the id last (for the CLI and agents). Memory content is
 * shown as written (the document is plain Markdown source, not rendered).
 */
export function memoryDocument(
  memory: Memory,
  versions: ReadonlyArray<Pick<MemoryVersion, 'version' | 'change' | 'recordedAt' | 'content'>>,
  annotations: ReadonlyArray<Pick<Annotation, 'text' | 'createdAt' | 'agent'>>,
  now: number,
  lifecycle?: MethodResult<'explain'>,
): string {
  const status =
    memory.status === 'active'
      ? ''
      : `**${memory.status}**${memory.statusReason ? `: ${memory.statusReason}` : ''}\n\n`;
  const about = [
    `${kindLabel(memory.kind)} in ${memory.layer} memory`,
    `remembered ${ageOf(memory.validFrom, now)} by ${authorOf(memory)}`,
    memory.pinned ? 'pinned' : '',
    memory.tags.length > 0 ? memory.tags.map((t) => `#${t}`).join(' ') : '',
  ].filter(Boolean);
  const source = sourceLabel(memory);
  const lines = [
    `# ${memoryTitle(memory, 100)}`,
    '',
    `${status}${memory.content}`,
    '',
    '---',
    '',
    `${about.join(' · ')}.`,
  ];
  if (source) lines.push('', `Source: ${source}`);
  if (memory.validTo) lines.push('', `No longer true since ${when(memory.validTo, now)}.`);
  lines.push('', '## History', '');
  for (const v of versions)
    lines.push(
      `- ${CHANGES[v.change] ?? v.change} ${when(v.recordedAt, now)} (version ${v.version}): ${memoryTitle(v, 100)}`,
    );
  if (annotations.length > 0) {
    lines.push('', '## Notes', '');
    for (const a of annotations) lines.push(`- ${a.text} (${a.agent ?? 'you'}, ${ageOf(a.createdAt, now)})`);
  }
  if (lifecycle) lines.push('', '## Importance', '', ...importanceLines(lifecycle));
  lines.push('', '---', '', `Memory id: \`${memory.id}\``);
  return `${lines.join('\n')}\n`;
}

/** How the lifecycle's factors read (engine/lifecycle): what counts most, and whether it stays. */
const FACTOR_WORDS: Record<string, string> = {
  base: 'its importance when written',
  accessFrequency: 'how often it is recalled',
  recency: 'how fresh it is',
  entityLinkage: 'what it links to',
  sourceTrust: 'who wrote it',
  stability: 'recalls on many days',
  layer: 'its layer',
  confirmations: 'confirmations',
};

function importanceLines(facts: MethodResult<'explain'>): string[] {
  const top = [...facts.importance.factors]
    .sort((a, b) => b.contribution - a.contribution)
    .slice(0, 2)
    .map((f) => FACTOR_WORDS[f.factor] ?? f.factor);
  const retained = `${Math.round(facts.retention * 100)}% retained`;
  return [
    `${facts.importance.score.toFixed(2)} of 1, mostly ${top.join(' and ')}; ${retained}.`,
    '',
    facts.archive.due
      ? 'It has faded: the next lifecycle run archives it (restore brings it back).'
      : `Kept: ${facts.archive.unmet.join('; ')}.`,
  ];
}
