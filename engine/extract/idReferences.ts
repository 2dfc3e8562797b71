/**
 * Engram's own ids written in a text (engine/memory/ids.ts: a short prefix, `_`, 20 Crockford
 * base32 characters), as a peer card's lines and a consolidated memory's provenance quote them.
 * They are references, not words nor entities: split at their digit-letter boundaries, their
 * random characters make fragments ("4", "pm") that match queries by chance, and two stores of the
 * same text would index different words.
 */
export const ID_REFERENCE = /\b[a-z]{1,3}_[0-9a-hjkmnp-tv-z]{20}\b/g;

const WHOLE_ID = new RegExp(`^${ID_REFERENCE.source}$`);

export function isIdReference(text: string): boolean {
  return WHOLE_ID.test(text);
}

/** The text with the ids it quotes blanked out. */
export function withoutIdReferences(text: string): string {
  return text.replace(ID_REFERENCE, ' ');
}
