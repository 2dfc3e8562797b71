import type { Palette } from './graphModel';
import { LAYER_NAMES } from './protocol';
import type { LayerName } from './protocol';

/**
 * What the graph's dots and lines mean, in the user's words: big dots are the things memories
 * mention (coloured by what they are), small dots are memories (coloured by layer), lines join a
 * memory to what it mentions, or two things related. Swatches take the palette the graph uses, so
 * the legend follows the theme.
 */

/** Entity types as a user calls them; an imported type is shown by its own name. */
const ENTITY_WORDS: Record<string, string> = {
  file: 'files',
  directory: 'folders',
  symbol: 'code symbols',
  package: 'packages',
  tool: 'tools',
  url: 'links',
  date: 'dates',
  person: 'people',
  name: 'other names',
  env: 'environment variables',
  command: 'commands',
};

/** What each memory layer holds. */
export const LAYER_WORDS: Record<LayerName, string> = {
  working: 'working: short-lived notes',
  episodic: 'episodic: what happened',
  semantic: 'semantic: facts and decisions',
  procedural: 'procedural: how to do things',
  codebase: 'codebase: from the code scan',
};

export interface LegendEntry {
  /** 'entity': a big dot; 'memory': a small one; 'line': a link; 'capture': the session layer's dots. */
  shape: 'entity' | 'memory' | 'line' | 'capture';
  colour: string;
  text: string;
}

/**
 * The legend's entries for the entity types in view (in the filters' order) and every layer. Types
 * drawn in the same colour share one entry ("files, folders"), so every colour is explained once.
 */
export function legendEntries(
  palette: Palette,
  entityTypes: readonly string[],
  sessions = false,
): LegendEntry[] {
  const byColour = new Map<string, string[]>();
  for (const type of entityTypes) {
    const colour = palette.entity(type);
    byColour.set(colour, [...(byColour.get(colour) ?? []), ENTITY_WORDS[type] ?? type]);
  }
  const entities = [...byColour].map(([colour, words]) => ({
    shape: 'entity' as const,
    colour,
    text: words.join(', '),
  }));
  const memories = LAYER_NAMES.map((l) => ({
    shape: 'memory' as const,
    colour: palette.layer(l),
    text: LAYER_WORDS[l],
  }));
  return [
    ...entities,
    ...memories,
    { shape: 'line', colour: palette.edge, text: 'related' },
    { shape: 'line', colour: palette.mention, text: 'mentions' },
    ...(sessions
      ? [
          { shape: 'capture' as const, colour: palette.session, text: 'agent sessions that edited a file' },
          { shape: 'capture' as const, colour: palette.commit, text: 'commits that carry their edits' },
        ]
      : []),
  ];
}

/** Fills `box` with the entries: a caption per group, a swatch and words per entry. */
export function fillLegend(box: HTMLElement, entries: readonly LegendEntry[]): void {
  const groups: [string, LegendEntry['shape']][] = [
    ['Big dots: what memories mention', 'entity'],
    ['Small dots: memories, by layer', 'memory'],
    ['Lines', 'line'],
    ['Captured sessions', 'capture'],
  ];
  box.replaceChildren(
    ...groups
      .filter(([, shape]) => shape !== 'capture' || entries.some((e) => e.shape === 'capture'))
      .map(([caption, shape]) => {
        const group = document.createElement('span');
        group.className = 'legend-group';
        const title = document.createElement('span');
        title.className = 'caption';
        title.textContent = caption;
        group.append(title);
        for (const entry of entries.filter((e) => e.shape === shape)) {
          const item = document.createElement('span');
          item.className = 'legend-item';
          const swatch = document.createElement('span');
          swatch.className = `swatch ${shape}`;
          swatch.style.background = entry.colour;
          item.append(swatch, document.createTextNode(entry.text));
          group.append(item);
        }
        return group;
      }),
  );
}
