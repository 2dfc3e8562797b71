import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ClaimCheck } from './claimTypes';
import { goneWord, ok, presentAgain, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import { configValue, readConfigText, sameConfigValue } from './configFiles';
import { verifyDefaultClaim } from './defaultValues';
import { refusedOption } from './refusedOptions';
import type { FileReader } from './fileHistory';
import { eventAfter } from './gitHistory';
import type { VerificationContext } from './verificationContext';
import { pathState, resolveClaimPath } from './workspacePaths';

/** Config files are small; a bigger file is data, not read whole for one key. */
const MAX_CONFIG_BYTES = 2_000_000;

/**
 * A config claim. With the file it is in ("strict: true in tsconfig.json"): the key must be in that
 * file, with the value the memory gives; a changed value is stale with the value the file has now
 * as the repair. Without a file: the dotted key, or its last part as a word, must occur somewhere,
 * and not only where the code now refuses it (refusedOptions.ts).
 */
export async function verifyConfigClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  if (claim.isDefault) return verifyDefaultClaim(ctx, claim);
  if (claim.file !== undefined) return verifyInFile(ctx, claim, claim.file);
  const last = claim.subject.slice(claim.subject.lastIndexOf('.') + 1);
  const foundIn = [...(await ctx.literals.get(claim.subject)), ...(await ctx.words.get(last))];
  if (claim.negated)
    return foundIn.length > 0 ? presentAgain(ctx, claim, claim.subject, foundIn) : ok('absent');
  if (foundIn.length === 0) return goneWord(ctx, claim, last, 'config key no longer in the workspace');
  return (await refusedOption(ctx, claim, last)) ?? ok('present');
}

async function verifyInFile(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  written: string,
): Promise<ClaimCheck> {
  const resolved = resolveClaimPath(ctx.root, written);
  if (!resolved.inside) return unverifiable(`refused: ${written} is ${resolved.reason}, never read`);
  const file = resolved.relative;
  const state = pathState(ctx.root, ctx.realRoot, file);
  if (state === 'outside') return unverifiable('refused: a link out of the workspace, never read');
  if (state === 'directory') return unverifiable(`${file} is a folder, not a config file`);
  if (state === 'missing') {
    if (claim.negated) return ok('absent, as the memory says');
    const event = eventAfter((await ctx.pathEvents).get(file) ?? [], claim.memoryValidFrom);
    // Only a file the repository had when the memory was written can have drifted away from it:
    // "check network.host in elasticsearch.yml" speaks of the reader's own file.
    if (ctx.git && !ctx.git.shallow) {
      if (!event)
        return unverifiable(
          `${file} was never in the repository (a file of the reader's or of another project)`,
        );
      // git keeps whole seconds: a commit in the memory's own second may have come after it.
      if (event.committed < Math.floor(claim.memoryValidFrom / 1000) * 1000)
        return unverifiable(`${file} was already gone before the memory was written`);
    }
    return withCommit({ verdict: 'stale', evidence: { reason: `${file} is gone` } }, event?.commit);
  }
  const absolute = path.join(ctx.root, file);
  if (statSync(absolute).size > MAX_CONFIG_BYTES)
    return unverifiable(`${file} is over ${MAX_CONFIG_BYTES / 1_000_000} MB: not read as config`);
  const tree = readConfigText(file, readFileSync(absolute, 'utf8'));
  if (!tree.ok) return unverifiable(`${file}: ${tree.error}`);
  const found = configValue(tree.root, claim.subject);
  const holds = (value: { value: string } | undefined) =>
    value !== undefined && (claim.value === undefined || sameConfigValue(claim.value, value.value));
  const reader: FileReader<{ path: string; value: string } | undefined> = {
    name: `config\u0000${claim.subject}`,
    read(text) {
      if (text === undefined) return undefined;
      const version = readConfigText(file, text);
      return version.ok ? configValue(version.root, claim.subject) : 'unreadable';
    },
  };
  if (claim.negated) {
    if (!holds(found)) return ok('not so, as the memory says', found ? { now: found.value } : {});
    const commit = await ctx.fileBreak([file], claim.memoryValidFrom, reader, holds, 'any');
    return withCommit(
      { verdict: 'stale', evidence: { reason: 'so although denied', now: found?.value } },
      commit,
    );
  }
  if (holds(found)) return ok('as stated', { foundIn: [file], now: found?.value });
  // Not so when the memory was written either: a misreading or a wrong memory, not drift.
  if ((await ctx.heldThen([file], claim.memoryValidFrom, reader, holds)) === false)
    return unverifiable(`not so in ${file} when the memory was written either`);
  const commit = await ctx.fileBreak([file], claim.memoryValidFrom, reader, (v) => !holds(v), 'every');
  if (!found)
    return withCommit(
      { verdict: 'stale', evidence: { reason: `no longer in ${file}`, foundIn: [file] } },
      commit,
    );
  const check: ClaimCheck = {
    verdict: 'stale',
    evidence: { reason: 'value changed', foundIn: [file], now: found.value },
  };
  if (claim.valueSpan && claim.value !== undefined) {
    // Written quoted ("debug"), repaired quoted.
    const quoted = claim.valueSpan[1] - claim.valueSpan[0] === claim.value.length + 2;
    check.evidence.repair = {
      span: claim.valueSpan,
      text: quoted ? JSON.stringify(found.value) : found.value,
    };
  }
  return withCommit(check, commit);
}
