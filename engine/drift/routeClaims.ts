import type { ClaimCheck } from './claimTypes';
import { goneWord, ok, presentAgain, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { FileReader } from './fileHistory';
import { answers, normaliseRoute, routesIn } from './routeDefinitions';
import type { VerificationContext } from './verificationContext';
import { resolveClaimPath } from './workspacePaths';
import { neverInRepository } from './readerFiles';

/** A version of a source file as route claims read it: the routes it defines. */
const ROUTES: FileReader<Array<{ route: string; method: string }>> = {
  name: 'routes',
  read: (text) => (text === undefined ? [] : routesIn(text)),
};

/**
 * A route: verifiable only when the code defines routes at all. Defined, with the method the
 * memory gives (if any), in the file it names (if any): ok; defined only in another file: moved
 * there; defined with other methods only: stale with the methods it has now; not defined: stale.
 */
export async function verifyRouteClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const routes = await ctx.routes();
  if (routes.size === 0) return unverifiable('the code defines no routes');
  const route = normaliseRoute(claim.subject);
  const definitions = routes.get(route) ?? [];
  if (claim.negated) {
    if (definitions.length === 0) return ok('not defined, as the memory says');
    const files = [...(await ctx.literals.get(claim.subject))];
    return presentAgain(ctx, claim, claim.subject, files);
  }
  let file: string | undefined;
  if (claim.file !== undefined) {
    const resolved = resolveClaimPath(ctx.root, claim.file);
    if (!resolved.inside) return unverifiable(`refused: ${claim.file} is ${resolved.reason}, never read`);
    file = resolved.relative;
    // "`src/routes/about.svelte` would correspond to the `/about` route": the reader's app.
    if (await neverInRepository(ctx, file))
      return unverifiable(`a route of the reader's app (${file} was never in the repository)`);
  }
  if (definitions.length === 0)
    return goneWord(ctx, claim, claim.subject, 'route no longer defined', file ? [file] : []);
  const serving = definitions.filter((d) => answers(d, claim.method));
  const methods = [...new Set(definitions.map((d) => d.method.toUpperCase()))].sort().join(', ');
  // The first commit after the memory after which the file no longer serves the route as stated.
  const brokenIn = (files: readonly string[]) =>
    ctx.fileBreak(
      files,
      claim.memoryValidFrom,
      ROUTES,
      (found) => !found.some((d) => d.route === route && answers(d, claim.method)),
      'every',
    );
  if (serving.length === 0) {
    const check: ClaimCheck = {
      verdict: 'stale',
      evidence: { reason: `method changed: ${claim.method ?? ''} no longer served`, now: methods },
    };
    return withCommit(check, await brokenIn(file ? [file] : [...new Set(definitions.map((d) => d.file))]));
  }
  if (file !== undefined && !serving.some((d) => d.file === file)) {
    const foundIn = [...new Set(serving.map((d) => d.file))].sort();
    return withCommit(
      { verdict: 'moved', evidence: { reason: 'handled in another file', target: foundIn[0], foundIn } },
      await brokenIn([file]),
    );
  }
  return ok('defined', { foundIn: [...new Set(serving.map((d) => d.file))].sort() });
}
