// The native-looking controls: @vscode-elements web components, bundled into timeline.js.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-radio/index.js';
import '@vscode-elements/elements/dist/vscode-radio-group/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { TimelineFilter } from './filters';
import { LAYER_COLOURS } from './draw';
import { LAYER_NAMES } from './protocol';

/** The parts of the components this panel uses. */
type ValueElement = HTMLElement & { value: string };
type CheckElement = HTMLElement & { checked: boolean; label: string };

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export interface Toolbar {
  /** Fills the menus with the values present in the data (kept selections stay selected). */
  setChoices(choices: { kinds: string[]; agents: string[]; statuses: string[]; tags: string[] }): void;
  setStatus(text: string): void;
  setAsOfLabel(text: string): void;
}

export interface ToolbarEvents {
  onFilter(change: Partial<TimelineFilter>): void;
  onFit(): void;
  onAsOf(on: boolean, axis: 'transaction' | 'valid'): void;
}

/** Wires the toolbar to `events`, starting from `filter` and the as-of settings. */
export function createToolbar(
  filter: TimelineFilter,
  asOf: { on: boolean; axis: 'transaction' | 'valid' },
  css: (name: string, fallback: string) => string,
  events: ToolbarEvents,
): Toolbar {
  const layers = byId<HTMLSpanElement>('layers');
  let hidden = [...filter.hiddenLayers];
  for (const layer of LAYER_NAMES) {
    const box = document.createElement('vscode-checkbox') as CheckElement;
    box.checked = !hidden.includes(layer);
    box.dataset['layer'] = layer;
    box.title = `Show the ${layer} layer`;
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = css(LAYER_COLOURS[layer], '#88f');
    box.append(swatch, document.createTextNode(layer));
    box.addEventListener('change', () => {
      hidden = box.checked ? hidden.filter((l) => l !== layer) : [...hidden, layer];
      events.onFilter({ hiddenLayers: hidden });
    });
    layers.append(box);
  }

  const selects = {
    kind: byId<ValueElement>('kind'),
    status: byId<ValueElement>('status-filter'),
    agent: byId<ValueElement>('agent'),
    tag: byId<ValueElement>('tag'),
  };
  const current: Record<keyof typeof selects, string> = {
    kind: filter.kind,
    status: filter.status,
    agent: filter.agent,
    tag: filter.tag,
  };
  for (const [key, select] of Object.entries(selects) as Array<[keyof typeof selects, ValueElement]>) {
    select.addEventListener('change', () => {
      current[key] = select.value;
      events.onFilter({ [key]: select.value });
    });
  }

  const search = byId<ValueElement>('search');
  search.value = filter.text;
  search.addEventListener('input', () => events.onFilter({ text: search.value }));
  byId('fit').addEventListener('click', () => events.onFit());

  const asOfBox = byId<CheckElement>('asof');
  const axisGroup = byId<HTMLElement>('axis');
  let axis = asOf.axis;
  asOfBox.checked = asOf.on;
  for (const radio of Array.from(
    axisGroup.querySelectorAll<CheckElement & { value: string }>('vscode-radio'),
  ))
    radio.checked = radio.value === axis;
  asOfBox.addEventListener('change', () => events.onAsOf(asOfBox.checked, axis));
  axisGroup.addEventListener('change', (e) => {
    const value = (e.target as { value?: string }).value;
    axis = value === 'valid' ? 'valid' : 'transaction';
    events.onAsOf(asOfBox.checked, axis);
  });

  const status = byId<HTMLSpanElement>('status');
  const asOfTime = byId<HTMLSpanElement>('asof-time');
  const labels: Record<keyof typeof selects, string> = {
    kind: 'any kind',
    status: 'any status',
    agent: 'any agent',
    tag: 'any tag',
  };
  return {
    setChoices(choices) {
      const lists: Record<keyof typeof selects, string[]> = {
        kind: choices.kinds,
        status: choices.statuses,
        agent: choices.agents,
        tag: choices.tags,
      };
      for (const key of Object.keys(selects) as Array<keyof typeof selects>) {
        const values = lists[key];
        if (current[key] !== '' && !values.includes(current[key])) values.unshift(current[key]);
        // Option labels come from memories (agents, tags): set as text, never as markup.
        const options = [['', labels[key]], ...values.slice(0, 500).map((v) => [v, v])].map(
          ([value, label]) => {
            const option = document.createElement('vscode-option') as HTMLElement & {
              value: string;
              selected: boolean;
            };
            option.value = value as string;
            option.textContent = label as string;
            option.selected = value === current[key];
            return option;
          },
        );
        selects[key].replaceChildren(...options);
        selects[key].value = current[key];
      }
    },
    setStatus(text) {
      status.textContent = text;
    },
    setAsOfLabel(text) {
      asOfTime.textContent = text;
    },
  };
}
