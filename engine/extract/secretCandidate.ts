/** A stretch of the original text that holds a secret, before overlaps are settled. */
export interface SecretCandidate {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

/** What a caller already knows of a text, sparing a detector its gate. */
export interface ScanScope {
  /** Whether the text holds a provider token's hint (secretPatterns.ts, mayHoldProviderToken). */
  providerHints?: boolean;
}

export type SecretDetector = (text: string, out: SecretCandidate[], scope?: ScanScope) => void;

/** A secret recognisable by its shape (secretPatterns.ts, providerTokens.ts). */
export interface TokenPattern {
  readonly kind: string;
  /** Global; with the `d` flag when `group` is set. */
  readonly re: RegExp;
  /** Capture group holding the secret; the whole match when absent. */
  readonly group?: number;
  /** A cheap substring the text must contain for the pattern to be worth running. */
  readonly hint: string | RegExp;
  readonly accept?: (secret: string) => boolean;
}
