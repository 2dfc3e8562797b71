import type { ClaimCheck, ExtractedClaim } from './claimTypes';
import { goneWord, ok, presentAgain } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { VerificationContext } from './verificationContext';

type Partial = Omit<ExtractedClaim, 'negated'>;

const EVENT_NAME = String.raw`([a-z][\w:-]{0,40})`;
/** "the `level-change` event", "`readable` events", "event `drain`", "emits `close`". */
const EVENT_RE = new RegExp(
  String.raw`\`${EVENT_NAME}\`\s+events?\b|\bevents?\s+\`${EVENT_NAME}\`|\bemits?\s+(?:an?\s+|the\s+)?\`${EVENT_NAME}\``,
  'g',
);

/**
 * Events the project emits, named in prose: an event is a string the code passes to `emit` or
 * `on`, so it is checked as a string literal of the code, never as an identifier.
 */
export function matchEvents(text: string, out: Partial[]): void {
  for (const m of text.matchAll(EVENT_RE)) {
    const name = (m[1] ?? m[2] ?? m[3]) as string;
    const start = (m.index ?? 0) + m[0].indexOf(`\`${name}\``) + 1;
    out.push({ kind: 'event', subject: name, span: [start, start + name.length] });
  }
}

/**
 * An event holds while some code file names it as a string (`emit('drain')`, `on("drain")`).
 * Gone, it is stale with the commit that removed the last one; never named by the code, the
 * memory described another emitter's event (Node's, the browser's): not checkable here.
 */
export async function verifyEventClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const name = claim.subject;
  const literals = await Promise.all(
    [`'${name}'`, `"${name}"`, `\`${name}\``].map((q) => ctx.codeLiterals.get(q)),
  );
  const foundIn = [...new Set(literals.flatMap((files) => [...files]))];
  if (claim.negated) return foundIn.length > 0 ? presentAgain(ctx, claim, name, foundIn) : ok('absent');
  if (foundIn.length > 0) return ok('named by the code', { foundIn });
  return goneWord(ctx, claim, name, 'no code names this event any more');
}
