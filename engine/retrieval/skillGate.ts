import { idf } from '../lexical/bm25';
import { visibleCondition } from '../memory/visibility';
import type { Viewer } from '../memory/visibility';
import { affordableTerms, LEXICAL_WEIGHTS, MAX_QUERY_TERMS } from '../lexical/lexicalIndex';
import { queryTerms, tokenize } from '../lexical/tokenizer';
import { fullMemories } from './candidateRows';
import type { Memory } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';
import type { MemoryReads } from './recallSources';

/**
 * Skills: the procedural memories for a task, given only when they are likely to help (seed 003's
 * `get_skills`, after SkillsBench: a few focused procedures help an agent, a pile of loosely
 * related ones hurts). Three stages; need and calibration may answer "nothing" with the reason:
 * 1. need: is there procedural memory at all, and does any of it share a word with the task?
 * 2. selection: the best procedures by BM25, at most `limit`, each within half of the best score;
 * 3. calibration: each one's confidence must reach a threshold calibrated on real data
 *    (docs/benchmarks.md). Confidence = coverage x distinctness: the share of the task's
 *    information (idf-weighted terms) the procedure's own words cover, times how clearly it leads
 *    the next candidate. Measured on CoSQA, the lead is what tells a right procedure from a
 *    borderline one (AUC 0.71 for "the first is the gold one", coverage alone 0.63): among many
 *    similar procedures only a clear winner is given; a lone match in a small store is distinct.
 */

/** A procedure: the procedural layer, or a how-to or gotcha written in another layer. */
export const SKILL_FILTER = "(m.layer = 'procedural' OR m.kind IN ('procedure', 'error-pattern'))";

/**
 * The calibrated confidence threshold: the best accuracy of the decision on the first half of
 * CoSQA's dev queries (`npm run bench:skills`), reported on the other half in docs/benchmarks.md.
 */
export const DEFAULT_SKILL_THRESHOLD = 0.45;
/** A procedure this far (share of its score) ahead of the next candidate is fully distinct. */
const FULL_LEAD = 0.3;
/** Selection keeps procedures within this share of the best one's BM25 score. */
const RELATIVE_SCORE = 0.5;
/** Focused, not comprehensive: at most this many. @default 3 */
export const DEFAULT_SKILL_LIMIT = 3;
/** Candidates the selection looks at. */
const CANDIDATES = 20;

export interface SkillOptions {
  query: string;
  /** @default DEFAULT_SKILL_LIMIT */
  limit?: number;
  /** @default DEFAULT_SKILL_THRESHOLD */
  threshold?: number;
  /** Record the access, as recall does (false for read-only callers). @default true */
  noteAccess?: boolean;
  /** Who reads: another agent's private procedures are not its skills (visibility.ts). */
  viewer?: Viewer;
}

export interface SkillCandidate {
  memoryId: string;
  /** BM25 of the procedure for the task. */
  score: number;
  /** coverage x distinctness, 0..1: what the threshold is compared with. */
  confidence: number;
  /** Share of the task's idf-weighted terms the procedure's words cover, 0..1. */
  coverage: number;
  /** Its BM25 lead over the next candidate, as a share of its own score, 0..1. */
  lead: number;
  /** The task's terms it covers. */
  matched: string[];
}

export interface SkillAnswer {
  query: string;
  /** `inject` when skills are returned; `skip` otherwise, with the stage that said no. */
  decision: 'inject' | 'skip';
  /** The stage that decided: selection always keeps the best candidate, so it never says no. */
  stage: 'need' | 'calibration';
  reason: string;
  threshold: number;
  skills: Array<SkillCandidate & { memory: Memory }>;
  /** Every selected procedure with its confidence, the rejected ones too: why the gate decided. */
  considered: SkillCandidate[];
}

export function selectSkills(store: MemoryReads, options: SkillOptions): SkillAnswer {
  const threshold = options.threshold ?? DEFAULT_SKILL_THRESHOLD;
  const limit = options.limit ?? DEFAULT_SKILL_LIMIT;
  const answer = (
    stage: SkillAnswer['stage'],
    reason: string,
    considered: SkillCandidate[] = [],
  ): SkillAnswer => ({
    query: options.query,
    decision: 'skip',
    stage,
    reason,
    threshold,
    skills: [],
    considered,
  });

  const visible = visibleCondition(options.viewer);
  return store.read((r) => {
    const procedures = r.value<number>(
      `SELECT count(*) FROM memories m WHERE m.superseded_at IS NULL AND m.status = 'active' AND ${SKILL_FILTER}
       AND ${visible.sql}`,
      visible.params,
    );
    if (!procedures) return answer('need', 'no procedural memories yet');
    const terms = queryTerms(options.query).slice(0, MAX_QUERY_TERMS);
    if (terms.length === 0) return answer('need', 'the task has no searchable words');
    const found = skillCandidates(r, terms, visible);
    if (found.length === 0)
      return answer('need', `none of the ${procedures} procedures shares a word with the task`);

    const best = found[0]!.score;
    const selected = found.filter((c) => c.score >= best * RELATIVE_SCORE).slice(0, limit);
    const weigh = termWeights(r, terms);
    const memories = fullMemories(
      r,
      selected.map((c) => c.memoryId),
    );
    const considered = selected.map((c, i) => {
      const covered = coverage(memories.get(c.memoryId)!, weigh);
      const lead = c.score > 0 ? (c.score - (found[i + 1]?.score ?? 0)) / c.score : 0;
      const confidence = covered.coverage * Math.min(1, lead / FULL_LEAD);
      return { ...c, ...covered, lead: round3(lead), confidence: round3(confidence) };
    });
    const kept = considered.filter((c) => c.confidence >= threshold);
    if (kept.length === 0) {
      const top = considered.reduce((a, b) => (b.confidence > a.confidence ? b : a));
      return answer(
        'calibration',
        `the best procedure's confidence ${top.confidence.toFixed(2)} (covers ${percent(top.coverage)} of the task, leads the next by ${percent(top.lead)}) is below the threshold ${threshold}`,
        considered,
      );
    }
    if (options.noteAccess !== false)
      store.noteRead({
        type: 'recall',
        data: { query: options.query, memoryIds: kept.map((c) => c.memoryId) },
      });
    return {
      query: options.query,
      decision: 'inject',
      stage: 'calibration',
      reason: `${kept.length} procedure${kept.length === 1 ? '' : 's'} with confidence at least ${threshold}`,
      threshold,
      skills: kept.map((c) => ({ ...c, memory: memories.get(c.memoryId)! })),
      considered,
    };
  });
}

/** BM25 over the procedures only, best first (the FTS4 rows every host writes). */
function skillCandidates(
  r: SqlReader,
  terms: string[],
  visible: ReturnType<typeof visibleCondition>,
): Array<{ memoryId: string; score: number }> {
  const match = affordableTerms(r, terms).join(' OR ');
  return r.all<{ memoryId: string; score: number }>(
    `SELECT d.memory_id AS memoryId, bm25(matchinfo(memory_fts, 'pcnalx'), ${LEXICAL_WEIGHTS.join(', ')}) AS score
     FROM memory_fts JOIN memory_docs d ON d.doc = memory_fts.docid
     JOIN memories m ON m.id = d.memory_id AND m.superseded_at IS NULL
     WHERE memory_fts MATCH ? AND m.status = 'active' AND ${SKILL_FILTER} AND ${visible.sql}
     ORDER BY score DESC, d.memory_id LIMIT ?`,
    [match, ...visible.params, CANDIDATES],
  );
}

/** Each task term's idf over the whole store: a word every memory has says little about the task. */
function termWeights(r: SqlReader, terms: string[]): Map<string, number> {
  const rows = r.value<number>('SELECT count(*) FROM memory_docs') ?? 0;
  const weights = new Map<string, number>();
  for (const term of terms) {
    const df =
      r.value<number>("SELECT documents FROM memory_fts_terms WHERE term = ? AND col = '*'", [term]) ?? 0;
    weights.set(term, idf(rows, df));
  }
  return weights;
}

function coverage(
  memory: Memory,
  weights: Map<string, number>,
): Pick<SkillCandidate, 'coverage' | 'matched'> {
  const own = new Set(tokenize(`${memory.content} ${memory.tags.join(' ')}`));
  let total = 0;
  let covered = 0;
  const matched: string[] = [];
  for (const [term, weight] of weights) {
    total += weight;
    if (!own.has(term)) continue;
    covered += weight;
    matched.push(term);
  }
  return { coverage: total === 0 ? 0 : round3(covered / total), matched };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

const percent = (share: number) => `${Math.round(share * 100)}%`;
