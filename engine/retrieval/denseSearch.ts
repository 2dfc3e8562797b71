/**
 * The dense (embedding) channel as the recall pipeline sees it. The host provides it when an
 * embedding provider and vector index are available; recall works without it.
 */
export interface DenseSearcher {
  /** The embedding model: vectors of different models are never compared. */
  readonly modelId: string;
  search(query: string, limit: number): Promise<Array<{ memoryId: string; score: number }>>;
}
