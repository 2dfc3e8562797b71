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
  /**
   * Milliseconds of layout per slice; sigma redraws between slices. Positions are written back
   * once per slice (each write costs a redraw), so a slice runs as many iterations as fit. @default 40
   */
  sliceMs?: number;
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
 * Runs forceatlas2 (graphology-layout-forceatlas2) in time slices across animation frames: sigma
 * redraws between slices, so the graph visibly settles instead of freezing the page.
 */
export function runForceLayout(graph: EngramGraph, options: LayoutOptions = {}): LayoutRun {
  const total = options.iterations ?? defaultIterations(graph.order);
  const budget = options.budgetMs ?? 4000;
  const sliceMs = options.sliceMs ?? 40;
  const schedule = options.schedule ?? ((step: () => void) => void requestAnimationFrame(step));
  const settings = layoutSettings(graph);
  const started = performance.now();
  let done = 0;
  let cancelled = false;
  let msPerIteration = 0;
  const step = (): void => {
    if (cancelled) return;
    const sliceStart = performance.now();
    // The first slice runs one iteration to learn what one costs on this graph.
    const iterations =
      msPerIteration > 0 ? Math.max(1, Math.min(total - done, Math.floor(sliceMs / msPerIteration))) : 1;
    forceAtlas2.assign(graph, { iterations, settings, getEdgeWeight: 'strength' });
    msPerIteration = Math.max(0.01, (performance.now() - sliceStart) / iterations);
    done += iterations;
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
