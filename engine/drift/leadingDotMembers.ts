import type { ExtractedClaim } from './claimTypes';
import { defaultReceivers } from './projectBindings';

type Partial = Omit<ExtractedClaim, 'negated'>;

/** "`" then "." right before the name, and "(" right after it: `.node()`, `.option(flags)`. */
const LEADING_DOT_CALL = { before: '`.', after: '(' };

/**
 * A project's docs write its own methods with a leading dot and no receiver: "For `.node()`
 * only", "call `.option()`". The receiver left out is the thing the package gives the reader, so
 * the claim is a member of the package (`execa.node`): checked as one (see verifySymbolClaim's
 * packageOwners), it is stale only when the package itself defined the member when the memory
 * was written and no longer does; a method of some object the package returns (`.on()` of a
 * watcher) was never the package's own, so it keeps the plain check of its name.
 */
export function asPackageMember(
  text: string,
  projectPackages: ReadonlySet<string>,
): (claim: Partial) => Partial {
  // The package's name as code writes it (`execa`, `fooBar` for foo-bar), not its class-like form.
  const [receiver] = defaultReceivers(projectPackages);
  return (claim) => {
    if (receiver === undefined || claim.kind !== 'symbol' || claim.subject.includes('.')) return claim;
    const [start, end] = claim.span;
    if (text.slice(start - 2, start) !== LEADING_DOT_CALL.before) return claim;
    if (text.slice(end, end + 1) !== LEADING_DOT_CALL.after) return claim;
    return { ...claim, subject: `${receiver}.${claim.subject}` };
  };
}
