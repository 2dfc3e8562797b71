import type { EntityType } from './entityTypes';
import type { Mention } from './mention';
import { TYPE_RANK } from './mention';
import type { ScanContext } from './scanContext';

/** What a command may contain and still leave to its own entity: `node scripts/build.mjs`. */
const NESTS_IN_COMMAND: ReadonlySet<EntityType> = new Set<EntityType>([
  'tool',
  'package',
  'file',
  'directory',
  'env',
  'url',
  'symbol',
  'date',
]);
/** Up to this many candidates, pairwise checks beat a per-character ownership array. */
const PAIRWISE_LIMIT = 48;

/**
 * Keeps, for every stretch of text, the mention of highest rank (then the longest, then the
 * first), except that a command keeps what it contains. Redaction markers take no mention but a
 * URL around them. Cost is linear in the total length of the candidates (pairwise for a few).
 * The kept mentions come in text order, a container before what it contains.
 */
export function resolveMentions(
  ctx: ScanContext,
  candidates: readonly Mention[],
  pairwiseLimit = PAIRWISE_LIMIT,
): Mention[] {
  const ordered = candidates
    .filter((m) => m.end > m.start)
    .sort(
      (a, b) =>
        TYPE_RANK[b.type] - TYPE_RANK[a.type] || b.end - b.start - (a.end - a.start) || a.start - b.start,
    );
  const kept = ordered.length <= pairwiseLimit ? keepPairwise(ctx, ordered) : keepByOwnership(ctx, ordered);
  return kept.sort((a, b) => a.start - b.start || b.end - a.end);
}

function mayOverlap(a: EntityType, b: EntityType): boolean {
  return (a === 'command' && NESTS_IN_COMMAND.has(b)) || (b === 'command' && NESTS_IN_COMMAND.has(a));
}

function keepPairwise(ctx: ScanContext, ordered: readonly Mention[]): Mention[] {
  const kept: Mention[] = [];
  for (const mention of ordered) {
    let fits = true;
    for (const [start, end] of ctx.redactions) {
      if (start < mention.end && mention.start < end && mention.type !== 'url') fits = false;
    }
    for (const other of kept) {
      if (!fits) break;
      if (other.start < mention.end && mention.start < other.end && !mayOverlap(other.type, mention.type)) {
        fits = false;
      }
    }
    if (fits) kept.push(mention);
  }
  return kept;
}

const TYPES: readonly EntityType[] = Object.keys(TYPE_RANK) as EntityType[];
const CODE = new Map<EntityType, number>(TYPES.map((t, i) => [t, i + 1]));
const BLOCKED = 255;
const NESTS_CODES = new Set<number>([...NESTS_IN_COMMAND].map((t) => CODE.get(t) as number));

/**
 * The same rule with owners per character, for texts with many candidates: `owner` holds the
 * type of the mention (other than a command) that has each character, `inCommand` whether a
 * command covers it.
 */
function keepByOwnership(ctx: ScanContext, ordered: readonly Mention[]): Mention[] {
  const owner = new Uint8Array(ctx.text.length);
  const inCommand = new Uint8Array(ctx.text.length);
  for (const [start, end] of ctx.redactions) owner.fill(BLOCKED, start, end);
  const kept: Mention[] = [];
  for (const mention of ordered) {
    const isCommand = mention.type === 'command';
    const code = CODE.get(mention.type) as number;
    if (!fitsOwners(owner, inCommand, mention, code, isCommand)) continue;
    if (isCommand) inCommand.fill(1, mention.start, mention.end);
    else owner.fill(code, mention.start, mention.end);
    kept.push(mention);
  }
  return kept;
}

function fitsOwners(
  owner: Uint8Array,
  inCommand: Uint8Array,
  mention: Mention,
  code: number,
  isCommand: boolean,
): boolean {
  const nests = NESTS_CODES.has(code);
  for (let i = mention.start; i < mention.end; i++) {
    const current = owner[i] as number;
    if (isCommand) {
      if (inCommand[i] === 1 || current === BLOCKED || (current !== 0 && !NESTS_CODES.has(current)))
        return false;
      continue;
    }
    if (current === BLOCKED ? mention.type !== 'url' : current !== 0) return false;
    if (inCommand[i] === 1 && !nests) return false;
  }
  return true;
}
