/**
 * Precision and recall of the merge decision of `remember` (a near-duplicate becomes a new
 * version of the memory it restates) against hand labels on real sentence pairs.
 * A "positive" is a merge: precision is the share of merges that were true restatements, the
 * figure that matters, since a wrong merge loses a fact.
 * Three rules: cosine >= threshold alone (the rule before distinguishing tokens), distinguishing
 * tokens alone, and both (the write path's rule). Cosine needs the default model (USE-lite, run
 * from source in its worker); without it only the token rule is measured.
 *
 * The pairs (test/bench/dedupPairs.json, 161 pairs: 76 merge, 85 keep) come from two public
 * benchmarks nobody here wrote, in ../shared/bench (see its README.md and each folder's README.md):
 * - LoCoMo (Maharana et al., ACL 2024, arXiv:2402.17753), locomo/locomo-dev5.json: the first five
 *   of the ten conversations of data/locomo10.json at snap-research/locomo@3eb6f2c, unchanged.
 *   CC BY-NC 4.0 (non-commercial, attribution). Sides are LLM-generated observations,
 *   human-annotated event summaries, or one sentence of a conversation turn.
 * - LongMemEval oracle (Wu et al., ICLR 2025, arXiv:2410.10813),
 *   longmemeval/longmemeval_oracle.json.gz: the 500 questions rebuilt from
 *   hussainzs/Memoria@959167b (per-question files, likely the 2025-09 cleaned release). MIT.
 *   Sides are one sentence of a chat turn.
 * The JSON stores no text of theirs: each side is a locator (file, path, character range) and the
 * sha1 of the text, resolved here at run time (dedupPairSource.ts); a locator or hash that does not
 * match stops the bench with one line naming the pair.
 * Selection: two different sentences from the same LoCoMo conversation or LongMemEval question
 * whose lower-cased word sets have Jaccard >= 0.5 (>= 0.4 where both hold a digit), sampled at
 * random across sources and Jaccard bands. Labels were written by hand, by reading, before any
 * merge rule or embedding model ran on the pairs (neither took part in choosing or labelling):
 * merge = the same fact said twice (tense, punctuation, filler, synonyms, an added evaluation or
 * motive); keep = a number, name, place, time, object or event differs or is added on one side,
 * since a merge replaces the older wording and what only it says would leave the active memory.
 * Each label carries a one-line reason. Do not relabel pairs to suit a rule.
 *
 * Run: `npm run bench:dedup` (in a git worktree, where ../shared/bench is not beside the
 * repository: `npm run bench:dedup -- --data /path/to/shared/bench`). Prints the report and
 * writes it to bench-out/dedup.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cosineOfUnitVectors } from '../../engine/embedding/unitVector';
import { distinguishingDifference } from '../../engine/memory/distinguishingTokens';
import { DEFAULT_NEAR_DUPLICATE_THRESHOLD } from '../../engine/memory/novelty';
import { useLiteProvider } from '../support/host';
import { resolvePairs } from './dedupPairSource';
import type { LabelledPair, StoredPair } from './dedupPairSource';
import { machine } from './stats';

interface Scores {
  merged: number;
  truePositives: number;
  precision: number | null;
  recall: number;
  /** Pairs merged against a `keep` label, with the label's reason. */
  wrongMerges: string[];
}

const root = path.join(__dirname, '..', '..');
const args = process.argv.slice(2);
const dataFlag = args.indexOf('--data');
const dataDir = dataFlag === -1 ? undefined : args[dataFlag + 1];
const PAIRS = loadPairs();

function loadPairs(): LabelledPair[] {
  const stored = (
    JSON.parse(readFileSync(path.join(__dirname, 'dedupPairs.json'), 'utf8')) as { pairs: StoredPair[] }
  ).pairs;
  try {
    if (dataFlag !== -1 && !dataDir)
      throw new Error('--data needs a folder (the one holding locomo/ and longmemeval/)');
    return resolvePairs(stored, root, dataDir);
  } catch (error) {
    process.stderr.write(`bench:dedup: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

function score(decisions: boolean[]): Scores {
  const merges = PAIRS.filter((_, i) => decisions[i]);
  const truePositives = merges.filter((p) => p.label === 'merge').length;
  const labelledMerges = PAIRS.filter((p) => p.label === 'merge').length;
  return {
    merged: merges.length,
    truePositives,
    precision: merges.length ? round(truePositives / merges.length) : null,
    recall: round(truePositives / labelledMerges),
    wrongMerges: merges
      .filter((p) => p.label === 'keep')
      .map((p) => `#${p.id} "${p.a.text}" / "${p.b.text}" (${p.reason})`),
  };
}

async function cosines(): Promise<number[] | undefined> {
  const provider = useLiteProvider();
  try {
    await provider.init();
    const vectors = await provider.embed(PAIRS.flatMap((p) => [p.a.text, p.b.text]));
    return PAIRS.map((_, i) => cosineOfUnitVectors(vectors[2 * i]!, vectors[2 * i + 1]!));
  } catch (error) {
    process.stderr.write(`no embedding model, measuring the token rule alone: ${String(error)}\n`);
    return undefined;
  } finally {
    await provider.dispose();
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

async function main(): Promise<void> {
  const sameTokens = PAIRS.map((p) => distinguishingDifference(p.a.text, p.b.text) === undefined);
  const cosine = await cosines();
  const threshold = DEFAULT_NEAR_DUPLICATE_THRESHOLD;
  const near = cosine?.map((c) => c >= threshold);
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    pairs: PAIRS.length,
    labelledMerge: PAIRS.filter((p) => p.label === 'merge').length,
    labelledKeep: PAIRS.filter((p) => p.label === 'keep').length,
    model: cosine ? 'use-lite-512' : null,
    threshold,
    rules: {
      tokensOnly: score(sameTokens),
      ...(near
        ? {
            cosineOnly: score(near),
            cosineAndTokens: score(near.map((n, i) => n && sameTokens[i]!)),
          }
        : {}),
    },
    // What the token rule does where the cosine gate is open: the pairs the old rule merged.
    ...(near
      ? {
          keptApartByTokens: PAIRS.flatMap((p, i) =>
            near[i] && !sameTokens[i]
              ? [
                  `#${p.id} labelled ${p.label}: ${distinguishingDifference(p.a.text, p.b.text)} (cosine ${cosine![i]!.toFixed(3)})`,
                ]
              : [],
          ),
        }
      : {}),
  };
  const text = JSON.stringify(report, null, 2);
  process.stdout.write(`${text}\n`);
  mkdirSync(path.join(root, 'bench-out'), { recursive: true });
  writeFileSync(path.join(root, 'bench-out', 'dedup.json'), `${text}\n`);
}

void main().then(() => process.exit(0));
