import { invalidInput } from '../errors';
import { redactSecrets } from '../extract/secrets';
import { contentHash } from './contentHash';
import type { MemoryLimits } from './limits';
import type { MemoryVersion } from './types';
import { KINDS, LAYERS } from './types';
import {
  oneOf,
  optionalText,
  requiredText,
  validateConflictKey,
  validateImportance,
  validateTags,
} from './validate';

export interface EditInput {
  content?: string;
  context?: string | null;
  tags?: string[];
  importance?: number;
  kind?: string;
  layer?: string;
  critical?: boolean;
  conflictKey?: string | null;
}

/**
 * The fields an edit changes, checked and with secrets redacted, before its transaction starts:
 * a bad field is refused in one line and nothing is written.
 */
export function editPatch(changes: EditInput, limits: MemoryLimits): Partial<MemoryVersion> {
  if (typeof changes !== 'object' || changes === null) throw invalidInput('edit needs the fields to change');
  const patch: Partial<MemoryVersion> = {};
  if (changes.content !== undefined) {
    patch.content = redactSecrets(
      requiredText('content', changes.content, limits.maxContentChars).trim(),
    ).text;
    patch.contentHash = contentHash(patch.content);
  }
  if (changes.context !== undefined) {
    const context = optionalText('context', changes.context, limits.maxContextChars);
    patch.context = context === null ? null : redactSecrets(context).text;
  }
  if (changes.tags !== undefined) patch.tags = validateTags(changes.tags);
  if (changes.importance !== undefined) patch.importance = validateImportance(changes.importance);
  if (changes.kind !== undefined) patch.kind = oneOf('kind', changes.kind, KINDS);
  if (changes.layer !== undefined) patch.layer = oneOf('layer', changes.layer, LAYERS);
  if (changes.critical !== undefined) patch.critical = changes.critical === true;
  if (changes.conflictKey !== undefined) patch.conflictKey = validateConflictKey(changes.conflictKey);
  if (Object.keys(patch).length === 0) throw invalidInput('edit needs at least one field to change');
  return patch;
}
