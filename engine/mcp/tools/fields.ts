import { z } from 'zod';
import { KINDS, LAYERS, SCOPES } from '../../memory/types';
import { MAX_QUERY_CHARS } from '../../retrieval/queryLimit';

/** Input fields shared by several tools, with the descriptions agents read. */
export const idField = z.string().min(1).max(200).describe('memory id, or a unique prefix of 6+ characters');
export const layerField = z.enum(LAYERS).describe('memory layer');
export const kindField = z.enum(KINDS).describe('memory kind');
export const tagsField = z.array(z.string().min(1).max(100)).max(50).describe('tags');
export const importanceField = z.number().min(0).max(1).describe('importance from 0 to 1 (default 0.5)');
export const scopeField = z
  .enum(SCOPES)
  .describe('private: visible to this agent only; shared (default): everyone');
/** Oversize text is refused here with a clear error before it crosses to the engine host. */
export const contentField = z.string().min(1).max(32_768).describe('the memory text');
/** Free-text questions, refused past the engine's MAX_QUERY_CHARS with the field named. */
export const queryField = z.string().min(1).max(MAX_QUERY_CHARS);
export const timeField = z.string().min(1).max(64).describe('ISO 8601 time, e.g. 2026-01-31T12:00:00Z');
