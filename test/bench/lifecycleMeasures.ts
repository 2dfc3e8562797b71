import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { PEER_CARD_KEY } from '../../engine/lifecycle/storedPeerCards';
import { tokenize } from '../../engine/lexical/tokenizer';
import { tokenCount } from '../../engine/retrieval/tokenCount';

/** What the lifecycle benches (lifecycleBench.ts, lifecycleLongMemEval.ts) measure of a memory. */

export type BenchCall = <T>(method: string, params: Record<string, unknown>) => Promise<T>;

/** A host on a simulated clock, without a model, and how to call it (request ids `prefix-N`). */
export async function openBenchHost(
  dbPath: string,
  clock: () => number,
  prefix: string,
): Promise<{ host: EngineDispatcher; call: BenchCall }> {
  const host = await EngineDispatcher.open({
    dbPath,
    sqlWasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock,
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: null,
    // The lexical copy built on the first search, not in the background: until a background build
    // ends, searches go to SQL, whose BM25 can differ in the last bits and so break ties otherwise.
    lexicalCopy: 'on-first-search',
  });
  let seq = 0;
  const call: BenchCall = (method, params) =>
    host.dispatch(method, params, { requestId: `${prefix}-${++seq}`, client: 'bench' }) as Promise<never>;
  return { host, call };
}

/** Active memories in recall by default, and their tokens (the memory an agent could be given); of them, peer cards. */
export function activeSize(host: EngineDispatcher): { memories: number; tokens: number; cardTokens: number } {
  const rows = host.store.read((r) =>
    r.all<{ content: string; card: number }>(
      `SELECT content, coalesce(conflict_key LIKE '${PEER_CARD_KEY}%', 0) AS card FROM memories
       WHERE superseded_at IS NULL AND status = 'active' AND layer != 'working'`,
    ),
  );
  const tokens = (of: typeof rows) => of.reduce((sum, row) => sum + tokenCount(row.content), 0);
  return {
    memories: rows.length,
    tokens: tokens(rows),
    cardTokens: tokens(rows.filter((row) => row.card === 1)),
  };
}

/** A peer card's lines, each with the turns (documents) it shows. */
export type CardLines = Map<string, { entity: string; lines: Array<{ line: string; docs: string[] }> }>;

/**
 * A peer card quotes a line of its members, each with its id; a line that quotes a consolidated
 * memory, cut at a card's line length, shows only its first sentences: it stands for the turns
 * whose sentences it shows, not all the gist quotes. A card is credited per question
 * (`creditedDocs`), with the turns of the lines that matched it, not every turn it quotes.
 */
export function cardLines(
  host: EngineDispatcher,
  docOf: ReadonlyMap<string, string[]>,
  textOf: ReadonlyMap<string, string>,
): CardLines {
  const cards = host.store.read((r) =>
    r.all<{ id: string; content: string }>(
      `SELECT id, content FROM memories WHERE superseded_at IS NULL AND conflict_key LIKE '${PEER_CARD_KEY}%'`,
    ),
  );
  return new Map(
    cards.map((card) => [
      card.id,
      {
        entity: /^What we know about (.+?), from \d+ memor/.exec(card.content)?.[1] ?? '',
        lines: [...card.content.matchAll(/^- \[([^\]]+)\] (.*)$/gm)].map(([, id, line]) => {
          const docs = docOf.get(id!) ?? [];
          return {
            line: line!,
            docs: docs.length < 2 ? docs : docs.filter((doc) => shows(line!, textOf.get(doc) ?? '')),
          };
        }),
      },
    ]),
  );
}

/**
 * The turns a hit is credited with for a question: a turn or gist, those it quotes (`docOf`); a
 * peer card, those of its lines that share the most query terms with the question (at least one,
 * ties all counted). The card's first line names its entity and every line is about it, so the
 * entity's own terms do not count as a match: a card about "Caroline" answers a question about
 * Caroline's pottery class by its pottery line, not by all six. Before (until lc9), a card was
 * credited with every turn its lines quote: six sessions for one hit, which made cards look
 * better than the line a reader would use.
 */
export function creditedDocs(
  memoryId: string,
  query: string,
  docOf: ReadonlyMap<string, string[]>,
  cards: CardLines,
): string[] {
  const card = cards.get(memoryId);
  if (card === undefined) return docOf.get(memoryId) ?? [];
  const { entity, lines } = card;
  const own = new Set(tokenize(entity));
  const asked = new Set(tokenize(query).filter((term) => !own.has(term)));
  const overlap = lines.map(({ line }) => new Set(tokenize(line).filter((term) => asked.has(term))).size);
  const best = Math.max(0, ...overlap);
  return best === 0 ? [] : [...new Set(lines.flatMap((l, i) => (overlap[i] === best ? l.docs : [])))];
}
/** Whether a card's line shows one of a turn's sentences (its first 40 characters, at least 12). */
function shows(line: string, turn: string): boolean {
  const body = turn.replace(/^[^:]{1,80}:\s+/, '').replace(/\s+/g, ' ');
  return body
    .split(/(?<=[.!?])\s+/)
    .some((sentence) => sentence.length >= 12 && line.includes(sentence.slice(0, 40)));
}
