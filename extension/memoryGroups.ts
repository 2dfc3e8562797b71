import { LAYERS } from '../engine/index';
import type { Memory } from '../engine/index';
import { kindLabel } from './memoryText';

/**
 * How the Memories view groups its rows (setting `engram.memories.groupBy`). Hundreds of memories
 * in one list are unreadable; a group row per kind, file or day, with its count, is a table of
 * contents. No `vscode` here, so the grouping is unit-tested in plain Node.
 */
export const GROUP_BY = ['kind', 'file', 'day', 'layer'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** The words the Group By pick and the setting's enum descriptions use. */
export const GROUP_BY_LABELS: Record<GroupBy, string> = {
  kind: 'Kind (decision, fact, note, code…)',
  file: 'File the memory comes from',
  day: 'Day it was remembered',
  layer: 'Memory layer (working, episodic, semantic, procedural, codebase)',
};

export interface MemoryGroup {
  /** Stable within a grouping: the tree row's id and what a memory row's parent is found by. */
  key: string;
  label: string;
  memories: Memory[];
}

/** Memories that name no file are grouped under this label when grouping by file. */
export const NO_FILE = 'No file';

const DAY_MS = 86_400_000;

/** The local calendar day of a moment, as `YYYY-MM-DD` (sorts like the days it names). */
function localDay(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `Today`, `Yesterday`, else the weekday and date: the words a person looks for a day by. */
function dayLabel(day: string, now: number): string {
  if (day === localDay(now)) return 'Today';
  if (day === localDay(now - DAY_MS)) return 'Yesterday';
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  return date.toLocaleDateString('en-US', {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}

/** The group a memory belongs to under a grouping (its key; labels come from groupMemories). */
export function groupKeyOf(memory: Memory, by: GroupBy): string {
  switch (by) {
    case 'kind':
      return memory.kind;
    case 'file':
      return memory.source?.file ?? '';
    case 'day':
      return localDay(memory.validFrom);
    case 'layer':
      return memory.layer;
  }
}

function labelOf(key: string, by: GroupBy, now: number): string {
  if (by === 'kind') return kindLabel(key);
  if (by === 'file') return key === '' ? NO_FILE : key;
  if (by === 'day') return dayLabel(key, now);
  return key;
}

/** Kinds and files by name (memories without a file last), days newest first, layers in their order. */
function compareKeys(by: GroupBy): (a: string, b: string) => number {
  if (by === 'day') return (a, b) => (a < b ? 1 : a > b ? -1 : 0);
  if (by === 'layer') {
    const order: readonly string[] = LAYERS;
    return (a, b) => order.indexOf(a) - order.indexOf(b);
  }
  return (a, b) => {
    if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
    return a.localeCompare(b);
  };
}

/**
 * The groups of `memories` under a grouping, each keeping the memories' order (the caller's: newest
 * first for the list, best first for a filter). Empty groups are never made.
 */
export function groupMemories(memories: readonly Memory[], by: GroupBy, now: number): MemoryGroup[] {
  const byKey = new Map<string, Memory[]>();
  for (const memory of memories) {
    const key = groupKeyOf(memory, by);
    const list = byKey.get(key);
    if (list) list.push(memory);
    else byKey.set(key, [memory]);
  }
  return [...byKey.keys()]
    .sort(compareKeys(by))
    .map((key) => ({ key, label: labelOf(key, by, now), memories: byKey.get(key) ?? [] }));
}

/** `Filtered: "auth" (12 of 340)`: the view's message while a filter narrows it. */
export function filterMessage(query: string, shown: number, total: number): string {
  return `Filtered: "${query}" (${shown} of ${total})`;
}
