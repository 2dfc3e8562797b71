import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { EngramGraph } from './graphModel';

export interface LayoutRun {
  cancel(): void;
}

export interface LayoutOptions {
  /** Iterations in all; fewer for big graphs, where each costs more. */
  iterations?: number;
  /** Stop after this much wall time even if iterations remain. @default 4000 */
  budgetMs?: number;
  /** Milliseconds of layout per animation frame, so the panel stays responsive. @default 12 */
  frameMs?: number;
  onDone?: (stats: { iterations: number; ms: number }) => void;
  /** The scheduler (requestAnimationFrame in the page; tests may pass a synchronous one). */
  schedule?: (step: () => void) => void;
}

/** Settings for a graph of this size: forceatlas2's own inference, Barnes-Hut above a few hundred nodes. */
export function layoutSettings(graph: EngramGraph) {
  return {
    ...forceAtlas2.inferSettings(graph),
    barnesHutOptimize: graph.order > 300,
    // Stronger relations pull harder.
    edgeWeightInfluence: 1,
  };
}

export function defaultIterations(order: number): number {
  return order <= 300 ? 300 : order <= 1000 ? 150 : 80;
}

/**
 * Runs forceatlas2 (graphology-layout-forceatlas2) in slices across animation frames: sigma
 * redraws as positions change, so the graph visibly settles instead of freezing the page.
 */
export function runForceLayout(graph: EngramGraph, options: LayoutOptions = {}): LayoutRun {
  const total = options.iterations ?? defaultIterations(graph.order);
  const budget = options.budgetMs ?? 4000;
  const frameMs = options.frameMs ?? 12;
  const schedule = options.schedule ?? ((step: () => void) => void requestAnimationFrame(step));
  const settings = layoutSettings(graph);
  const started = performance.now();
  let done = 0;
  let cancelled = false;
  const step = (): void => {
    if (cancelled) return;
    const frameStart = performance.now();
    while (done < total && performance.now() - frameStart < frameMs) {
      forceAtlas2.assign(graph, { iterations: 1, settings, getEdgeWeight: 'strength' });
      done++;
    }
    if (done < total && performance.now() - started < budget) schedule(step);
    else options.onDone?.({ iterations: done, ms: performance.now() - started });
  };
  if (graph.order > 0) schedule(step);
  else options.onDone?.({ iterations: 0, ms: 0 });
  return {
    cancel: () => {
      cancelled = true;
    },
  };
}
