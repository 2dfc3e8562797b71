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
  search(query: string, limit: number): Promise<Array<{ memoryId: string; score: number }>>;
}
