import { createHash } from 'node:crypto';

/** Normalises text so that whitespace and Unicode form differences do not defeat duplicate detection. */
export function normalizeContent(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

export function contentHash(text: string): string {
  return createHash('sha256').update(normalizeContent(text)).digest('hex').slice(0, 32);
}
