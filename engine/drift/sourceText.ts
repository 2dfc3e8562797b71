import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { VerificationContext } from './verificationContext';
import { pathState } from './workspacePaths';

/** Larger files are data or bundles, not source a claim is checked against. */
const MAX_SOURCE_BYTES = 1_000_000;

/** A workspace file's text now; undefined when it is gone, not a regular file inside, or too large. */
export function sourceText(
  ctx: Pick<VerificationContext, 'root' | 'realRoot'>,
  file: string,
): string | undefined {
  const absolute = path.join(ctx.root, file);
  if (pathState(ctx.root, ctx.realRoot, file) !== 'file' || statSync(absolute).size > MAX_SOURCE_BYTES)
    return undefined;
  return readFileSync(absolute, 'utf8');
}
