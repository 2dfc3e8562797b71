import type { VerificationContext } from './verificationContext';
import { pathState } from './workspacePaths';

/**
 * A workspace path that is not there now and that no commit ever deleted or renamed: the reader's
 * own file ("replace your `NavLink` in `src/routes/invoices.jsx`"), not one of the project's.
 * Without full history nothing can tell, so the answer is no.
 */
export async function neverInRepository(ctx: VerificationContext, file: string): Promise<boolean> {
  if (!ctx.git || ctx.git.shallow) return false;
  if (pathState(ctx.root, ctx.realRoot, file) !== 'missing') return false;
  return ((await ctx.pathEvents).get(file)?.length ?? 0) === 0;
}
