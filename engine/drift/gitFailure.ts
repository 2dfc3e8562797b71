import { GitError } from 'simple-git';

/**
 * Git ran and failed, or could not run (killed, no process to be had on a loaded machine): a
 * question without an answer. Its claim gets no verdict (claimVerifier.ts), never one built on
 * what little was read; any other error is a defect and fails the check.
 */
export class GitFailure extends Error {
  override name = 'GitFailure';
}

export function isGitFailure(error: unknown): error is Error {
  return error instanceof GitFailure || error instanceof GitError;
}
