import type { Viewer } from '../memory/visibility';

/** What a dense search may return: memories with one of `statuses` that `viewer` may see. */
export interface DenseFilter {
  statuses: readonly string[];
  viewer: Viewer;
}

/**
 * The dense (embedding) channel as the recall pipeline sees it. The host provides it when an
 * embedding provider and vector index are available; recall works without it.
 */
export interface DenseSearcher {
  /** The embedding model: vectors of different models are never compared. */
  readonly modelId: string;
  /**
   * True for a model measured to be much weaker than BM25 (USE-lite): its hits then re-rank text
   * matches and only fill the list when the lexical channel found too few, instead of pushing
   * lexical hits out; except for a request for advice (queryAnalysis.ts, asksForAdvice), where it
   * is fused as an equal of the lexical channel.
   */
  readonly supportOnly?: boolean;
  /**
   * `filter`: the statuses recall asks for and who is reading. A searcher that ranks in the store
   * of record applies them there (pgVectorSearch.ts), so a hidden memory takes no candidate's
   * place; the in-memory index leaves them to recall's final checks.
   */
  search(
    query: string,
    limit: number,
    filter?: DenseFilter,
  ): Promise<Array<{ memoryId: string; score: number }>>;
}
