import { DEFAULT_NEAR_DUPLICATE_THRESHOLD } from './novelty';

/**
 * Size limits applied at the engine boundary, so every interface enforces the same rules; every write
 * path (remember, edit, annotate, import) checks the same ones.
 */
export interface MemoryLimits {
  /** Longest content, in characters. @default 32768 */
  maxContentChars: number;
  /** Longest source context, in characters. @default 262144 */
  maxContextChars: number;
  /** Longest annotation, in characters. @default 10000 */
  maxAnnotationChars: number;
  /** Bytes of content and context of one session's active working memory. @default 65536 */
  workingMemoryBytesPerSession: number;
  /** How long a session's working memory lives without being touched. @default 24 h */
  workingMemoryTtlMs: number;
  /** Cosine similarity at which a semantic or procedural memory is a restatement. @default 0.92 */
  nearDuplicateThreshold: number;
}

export const DEFAULT_LIMITS: MemoryLimits = {
  maxContentChars: 32_768,
  maxContextChars: 262_144,
  maxAnnotationChars: 10_000,
  workingMemoryBytesPerSession: 64 * 1024,
  workingMemoryTtlMs: 24 * 60 * 60 * 1000,
  nearDuplicateThreshold: DEFAULT_NEAR_DUPLICATE_THRESHOLD,
};
