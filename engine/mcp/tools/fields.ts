import { z } from 'zod';
import { DEFAULT_LIMITS } from '../../memory/limits';
import { MAX_QUERY_CHARS } from '../../retrieval/queryLimit';

/**
 * Input fields of text as agents write it, shared by several tools. The methods' own fields and
 * limits (ids, layers, tags, importance...) come from their schemas in engine/api/*Params.ts.
 */
/** Oversize text is refused here with a clear error before it crosses to the engine host. */
export const contentField = z.string().min(1).max(DEFAULT_LIMITS.maxContentChars).describe('the memory text');
export const contextField = z.string().max(DEFAULT_LIMITS.maxContextChars);
/** validateConflictKey's limit (memory/validate.ts). */
export const conflictKeyField = z.string().min(1).max(200);
/** Free-text questions, refused past the engine's MAX_QUERY_CHARS with the field named. */
export const queryField = z.string().min(1).max(MAX_QUERY_CHARS);
export const timeField = z.string().min(1).max(64).describe('ISO 8601 time, e.g. 2026-01-31T12:00:00Z');
