import { NO_FILTER } from './filters';
import type { TimelineFilter } from './filters';
import type { TimeAxis } from './layout';
import { LAYER_NAMES, isMemoryId } from './protocol';
import type { LayerName } from './protocol';

/**
 * What survives hiding the panel and reloading the window (vscode.setState): UI state only, never
 * memory data, which the webview requests again.
 */
export interface UiState {
  from?: number;
  to?: number;
  filter: TimelineFilter;
  asOf: { on: boolean; t: number | null; axis: TimeAxis };
  brush: { from: number; to: number } | null;
  selectedId: string | null;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const text = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 200) : '');

/** Reads a saved state defensively: it may come from an older version of the panel. */
export function restoreUiState(saved: unknown): UiState {
  const s = record(saved);
  const f = record(s['filter']);
  const a = record(s['asOf']);
  const b = record(s['brush']);
  const hidden = Array.isArray(f['hiddenLayers'])
    ? (f['hiddenLayers'] as unknown[]).filter((l): l is LayerName => LAYER_NAMES.includes(l as LayerName))
    : [];
  const from = finite(s['from']);
  const to = finite(s['to']);
  const brushFrom = finite(b['from']);
  const brushTo = finite(b['to']);
  return {
    ...(from !== undefined && to !== undefined && to > from ? { from, to } : {}),
    filter: {
      ...NO_FILTER,
      hiddenLayers: hidden,
      kind: text(f['kind']),
      agent: text(f['agent']),
      status: text(f['status']),
      tag: text(f['tag']),
      text: text(f['text']),
    },
    asOf: {
      on: a['on'] === true,
      t: finite(a['t']) ?? null,
      axis: a['axis'] === 'valid' ? 'valid' : 'transaction',
    },
    brush: brushFrom !== undefined && brushTo !== undefined ? { from: brushFrom, to: brushTo } : null,
    selectedId: isMemoryId(s['selectedId']) ? s['selectedId'] : null,
  };
}
