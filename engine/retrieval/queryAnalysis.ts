import { extractEntities } from '../extract/entities';
import type { SqlReader } from '../store/sqlAccess';
import { queryTerms } from '../lexical/tokenizer';

export const INTENTS = ['who', 'what', 'when', 'why', 'how', 'where-in-code'] as const;
export type Intent = (typeof INTENTS)[number];

export interface QueryAnalysis {
  intent: Intent;
  terms: string[];
  /** Entities of the query found in the graph: id -> how strongly the query names it (0..1). */
  entities: Map<number, number>;
  entityNames: string[];
}

/*
 * Every run of word characters is tried from its first character only (the lookbehinds and `\b`):
 * a match inside a run implies one from its start, so the matches are the same, and the engine no
 * longer rescans a run from each of its characters, which made a 40,000-character run cost seconds.
 */
/** Paths (`src/a.ts`), camelCase, calls (`run()`) and file names (`a.ts`). */
const CODE_SHAPE =
  /(?<![\w-])[\w-]+\/[\w./-]+|\b[a-z]+[A-Z]\w*\b|(?<!\w)\w+\(\)|\w\.(ts|tsx|js|py|go|rs|java|cs|rb|php|cpp|c|h)\b/;
/** Proper nouns (not sentence-initial), dotted or slashed names and camelCase identifiers. */
const ALIAS_CANDIDATE =
  /(?<![.!?]\s)(?<!^)\b[A-Z][\p{L}\p{N}]+|(?<![\p{L}\p{N}])[\p{L}\p{N}]+[._/][\p{L}\p{N}._/-]+|\b[a-z]+[A-Z][\p{L}\p{N}]*/gu;

/**
 * Rule-based intent: cheap, explainable and good enough to pick channel weights. Code shapes
 * (paths, camelCase, calls) or code words make a where-in-code question.
 */
export function classifyIntent(query: string): Intent {
  const q = query.toLowerCase().trim();
  // A leading question word decides first: "why did we choose sql.js" asks why, despite the ".js".
  if (/^(why|what was the reason)\b/.test(q)) return 'why';
  if (/^(who|whom|whose)\b/.test(q)) return 'who';
  if (/^(when|what (time|day|date|year|month))\b/.test(q)) return 'when';
  if (/^how (do|to|can|should|does|did)\b/.test(q)) return 'how';
  const codeShape = CODE_SHAPE.test(query);
  if (
    codeShape ||
    /\b(where is|which file|defined|implemented|implementation|function|method|class|module|exported?|imports?|symbol|endpoint|handler)\b/.test(
      q,
    )
  ) {
    return 'where-in-code';
  }
  if (/\b(why|reason|because|rationale|motivat\w*|decid\w*|decision|chose|choose)\b/.test(q)) return 'why';
  if (
    /\b(when|what time|which (day|date|year|month)|how long ago|date|since|until|before|after|first time|last time)\b/.test(
      q,
    )
  ) {
    return 'when';
  }
  if (/\b(who|whom|whose|which person|someone|anyone)\b/.test(q)) return 'who';
  if (/\b(how (do|to|can|should|does)|steps?|procedure|install|configure|set ?up|run|deploy|build)\b/.test(q))
    return 'how';
  return 'what';
}

/** Asked of the assistant, not about a recommendation someone made ("what book did Tim recommend"). */
const ADVICE =
  /\b(?:can|could|would|will) you (?:\w+ ){0,2}?(?:recommend|suggest|advise)\b|\b(?:any|some|have) (?:\w+ )?(?:advice|tips|ideas|suggestions|recommendations)\b|\b(?:what|where|which|how) should i\b|\bshould i\b|\bdo you think\b|\b(?:recommend|suggest) (?:me|something)\b/i;

/**
 * A request for a recommendation or advice ("can you suggest a show for tonight?", "any tips?"):
 * what answers it is what the user said they like, own or do, seldom in the question's words.
 */
export function asksForAdvice(query: string): boolean {
  return ADVICE.test(query);
}

/**
 * Finds the query's entities in the graph: those the extractor recognises, and any query term or
 * capitalised word that is an alias of a known entity (so "caroline" finds Caroline).
 */
export function analyzeQuery(
  reader: SqlReader,
  query: string,
  lookup: (alias: string) => AliasedEntity | undefined = (alias) => entityByAlias(reader, alias),
): QueryAnalysis {
  const terms = queryTerms(query);
  const entities = new Map<number, number>();
  const names: string[] = [];
  const consider = (alias: string, weight: number) => {
    const row = lookup(alias);
    if (!row) return;
    if (!entities.has(row.id)) names.push(row.name);
    entities.set(row.id, Math.max(entities.get(row.id) ?? 0, weight));
  };
  for (const entity of extractEntities(query)) {
    consider(entity.key, Math.max(0.5, entity.weight));
    for (const alias of entity.aliases) consider(alias.toLowerCase(), Math.max(0.5, entity.weight));
  }
  // Proper nouns (capitalised, not sentence-initial) and identifiers the extractor left alone in a
  // short query. Ordinary words are not looked up: "family" or "long" are not entities.
  for (const match of query.matchAll(ALIAS_CANDIDATE)) {
    consider(match[0].toLowerCase(), 0.5);
  }
  return { intent: classifyIntent(query), terms, entities, entityNames: names };
}

/** A query with each shape the analysis looks for: a question word, a name, a command, a path, a call. */
const WARM_UP_QUERY = 'Why did Caroline run `npm run lint` on src/api/rateLimit.ts before getUserName()?';

let warmed = false;

/**
 * Runs the query analysis once on a sample, off any caller's path (a host, after open): the first
 * tokenizer, stemmer and entity-extractor calls compile their regular expressions and code, which
 * was most of a first recall once the indexes were built (profile at 10k memories, load ~12: query
 * analysis 143 ms of 260 ms).
 */
export function warmQueryAnalysis(): void {
  classifyIntent(WARM_UP_QUERY);
  queryTerms(WARM_UP_QUERY);
  extractEntities(WARM_UP_QUERY);
  for (const match of WARM_UP_QUERY.matchAll(ALIAS_CANDIDATE)) match[0].toLowerCase();
  warmed = true;
}

/** Whether this process has warmed the query analysis (tests). */
export function queryAnalysisWarmed(): boolean {
  return warmed;
}

export interface AliasedEntity {
  id: number;
  name: string;
}

/** The (unmerged) entity an alias names, if any. */
export function entityByAlias(reader: SqlReader, alias: string): AliasedEntity | undefined {
  return reader.get<AliasedEntity>(
    'SELECT e.id, e.name FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.alias = ? AND e.merged_into IS NULL LIMIT 1',
    [alias],
  );
}
