import type { LayerName, TimelineData, TimelineMemory } from './protocol';

/** The toolbar's filters; empty text or `''` selections mean "any". Kept in the UI state. */
export interface TimelineFilter {
  hiddenLayers: LayerName[];
  kind: string;
  agent: string;
  status: string;
  tag: string;
  text: string;
}

export const NO_FILTER: TimelineFilter = {
  hiddenLayers: [],
  kind: '',
  agent: '',
  status: '',
  tag: '',
  text: '',
};

/** Builds a predicate once per filter change (the text is lower-cased once, not per memory). */
export function memoryFilter(f: TimelineFilter): (m: TimelineMemory) => boolean {
  const needle = f.text.trim().toLowerCase();
  const hidden = new Set<string>(f.hiddenLayers);
  return (m) =>
    !hidden.has(m.layer) &&
    (f.kind === '' || m.kind === f.kind) &&
    (f.agent === '' || m.agent === f.agent) &&
    (f.status === '' || m.status === f.status) &&
    (f.tag === '' || m.tags.includes(f.tag)) &&
    (needle === '' || m.content.toLowerCase().includes(needle) || m.id.startsWith(needle));
}

/** The values the filter menus offer: those present in the data, sorted. */
export function filterChoices(data: TimelineData): {
  kinds: string[];
  agents: string[];
  statuses: string[];
  tags: string[];
} {
  const kinds = new Set<string>();
  const agents = new Set<string>();
  const statuses = new Set<string>();
  const tags = new Set<string>();
  for (const m of data.memories) {
    kinds.add(m.kind);
    statuses.add(m.status);
    if (m.agent) agents.add(m.agent);
    for (const tag of m.tags) tags.add(tag);
  }
  const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return { kinds: sorted(kinds), agents: sorted(agents), statuses: sorted(statuses), tags: sorted(tags) };
}
