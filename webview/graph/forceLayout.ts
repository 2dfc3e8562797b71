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
  /** Milliseconds of layout between yields to the page (input, drawing). @default 30, 50 above 1000 nodes */
  sliceMs?: number;
  /**
   * When the drawn graph first gets the positions computed so far; the interval then doubles, so
   * the start is animated and later redraws (costly for big graphs) leave time to the layout. @default 250
   */
  publishMs?: number;
  onDone?: (stats: {
    iterations: number;
    ms: number;
    msPerIteration: number;
    slices: number;
    busyMs: number;
  }) => void;
  /** Runs the next slice (a timeout in the page; tests may pass a synchronous one). */
  schedule?: (step: () => void) => void;
}

/** Settings for a graph of this size: forceatlas2's own inference, Barnes-Hut above a thousand nodes (measured: slower below). */
export function layoutSettings(graph: EngramGraph) {
  return {
    ...forceAtlas2.inferSettings(graph),
    barnesHutOptimize: graph.order > 1000,
    // Stronger relations pull harder.
    edgeWeightInfluence: 1,
  };
}

export function defaultIterations(order: number): number {
  return order <= 500 ? 400 : order <= 1000 ? 250 : 150;
}

/**
 * Runs forceatlas2 (graphology-layout-forceatlas2) on a copy of the graph that nothing draws, in
 * time slices that yield to the page, and hands the drawn graph the positions now and then
 * (sooner at first): sigma redraws only then, so the layout's time goes to iterations and the graph visibly
 * settles instead of freezing the page.
 */
export function runForceLayout(graph: EngramGraph, options: LayoutOptions = {}): LayoutRun {
  const total = options.iterations ?? defaultIterations(graph.order);
  const budget = options.budgetMs ?? 4000;
  // Each slice also copies the graph into forceatlas2's arrays and back: big graphs get longer slices.
  const sliceMs = options.sliceMs ?? (graph.order > 1000 ? 50 : 30);
  let publishMs = options.publishMs ?? 250;
  const schedule = options.schedule ?? ((step: () => void) => void setTimeout(step, 0));
  const settings = layoutSettings(graph);
  const shadow = graph.copy();
  const started = performance.now();
  let published = started;
  let done = 0;
  let cancelled = false;
  let msPerIteration = 0;
  let slices = 0;
  let busyMs = 0;
  const publish = (): void => {
    graph.updateEachNodeAttributes(
      (id, attrs) => {
        const at = shadow.getNodeAttributes(id);
        attrs.x = at.x;
        attrs.y = at.y;
        return attrs;
      },
      { attributes: ['x', 'y'] },
    );
    published = performance.now();
    publishMs *= 2;
  };
  const step = (): void => {
    if (cancelled) return;
    const sliceStart = performance.now();
    // The first slice runs one iteration to learn what one costs on this graph.
    const iterations =
      msPerIteration > 0 ? Math.max(1, Math.min(total - done, Math.floor(sliceMs / msPerIteration))) : 1;
    forceAtlas2.assign(shadow, { iterations, settings, getEdgeWeight: 'strength' });
    msPerIteration = Math.max(0.01, (performance.now() - sliceStart) / iterations);
    done += iterations;
    const finished = done >= total || performance.now() - started >= budget;
    if (finished || performance.now() - published >= publishMs) publish();
    slices++;
    busyMs += performance.now() - sliceStart;
    if (!finished) schedule(step);
    else
      options.onDone?.({ iterations: done, ms: performance.now() - started, msPerIteration, slices, busyMs });
  };
  if (graph.order > 0) schedule(step);
  else options.onDone?.({ iterations: 0, ms: 0, msPerIteration: 0, slices: 0, busyMs: 0 });
  return {
    cancel: () => {
      cancelled = true;
    },
  };
}
