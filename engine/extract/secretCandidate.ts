/** A stretch of the original text that holds a secret, before overlaps are settled. */
export interface SecretCandidate {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

export type SecretDetector = (text: string, out: SecretCandidate[]) => void;
