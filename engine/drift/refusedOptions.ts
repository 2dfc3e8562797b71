import type { ClaimCheck } from './claimTypes';
import { withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import { isCodeEvidence } from './evidenceFiles';
import { sourceText } from './sourceText';
import { oncePerCheck } from './checkMemo';
import type { VerificationContext } from './verificationContext';

/** Code files read for a refusal of one name; a name in more is too common to read them all. */
const MAX_FILES = 50;

/**
 * An option the code now refuses: `throw new TypeError('The "execPath" option has been removed.
 * Please use the "nodePath" option instead.')`, `throw new InvalidArgumentError('maxRedirections is
 * not supported, use the redirect interceptor')`. The name lives on in that message (and often in
 * a destructuring that catches it), so a word search calls it present; the thrown refusal says the
 * documented use fails. Only a refusal that is the whole predicate counts ("is not supported in
 * browsers" refuses a context, not the option), only in a throw, and only one a commit added after
 * the memory was written (else the memory described the refusal's time, and history decides
 * nothing). Undefined: not refused, as far as anyone can tell.
 */
export async function refusedOption(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
): Promise<ClaimCheck | undefined> {
  if (!ctx.git || !/^[A-Za-z_$][\w$-]*$/.test(name)) return undefined;
  for (const { file, message } of await refusalsOnce(ctx, name)) {
    const commit = await ctx.firstChange(message, [file], claim.memoryValidFrom, 'present');
    if (!commit) continue;
    return withCommit(
      { verdict: 'stale', evidence: { reason: `the code refuses it: "${message}"`, foundIn: [file] } },
      commit,
    );
  }
  return undefined;
}

interface Refusal {
  file: string;
  message: string;
}

/** The refusals of `name` in the code files that hold it, read once per check and name. */
function refusalsOnce(ctx: VerificationContext, name: string): Promise<Refusal[]> {
  return oncePerCheck(ctx, `refusals\u0000${name}`, () =>
    ctx.literals.get(name).then((files) =>
      [...files]
        .filter(isCodeEvidence)
        .sort()
        .slice(0, MAX_FILES)
        .flatMap((file) => {
          const message = refusalIn(sourceText(ctx, file) ?? '', name);
          return message === undefined ? [] : [{ file, message }];
        }),
    ),
  );
}

/** The refusal of `name` a thrown error states in `source`, as written (`maxRedirections is not supported`). */
export function refusalIn(source: string, name: string): string | undefined {
  const escaped = name.replace(/[$]/g, '\\$');
  const refusal = new RegExp(
    String.raw`(?:\bthrow\b|Error\()[^\n]*?['"\x60]([^'"\x60\n]*?["']?\b${escaped}\b["']?(?:\s+option)?\s+(?:has\s+been|was|is)\s+(?:removed|renamed|replaced|no\s+longer\s+supported|not\s+supported))(?=\s*[.,;:!'"\x60]|\s+(?:in\s+favou?r|use|please)\b)`,
    'i',
  );
  return source.match(refusal)?.[1]?.trim();
}
