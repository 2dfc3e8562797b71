import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { PEER_CARD_KEY } from '../../engine/lifecycle/storedPeerCards';
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

/**
 * A peer card quotes a line of its members, each with its id: credited, like a gist, with those
 * turns. A line cut at a card's line length that quotes a consolidated memory shows only its
 * first sentences: it is credited with the turns whose sentences it shows, not all the gist quotes.
 */
export function creditQuotes(
  host: EngineDispatcher,
  docOf: Map<string, string[]>,
  textOf: Map<string, string>,
): void {
  const cards = host.store.read((r) =>
    r.all<{ id: string; content: string }>(
      `SELECT id, content FROM memories WHERE superseded_at IS NULL AND conflict_key LIKE '${PEER_CARD_KEY}%'`,
    ),
  );
  for (const card of cards)
    docOf.set(
      card.id,
      [...card.content.matchAll(/^- \[([^\]]+)\] (.*)$/gm)].flatMap(([, id, line]) => {
        const docs = docOf.get(id!) ?? [];
        return docs.length < 2 ? docs : docs.filter((doc) => shows(line!, textOf.get(doc) ?? ''));
      }),
    );
}

/** Whether a card's line shows one of a turn's sentences (its first 40 characters, at least 12). */
function shows(line: string, turn: string): boolean {
  const body = turn.replace(/^[^:]{1,80}:\s+/, '').replace(/\s+/g, ' ');
  return body
    .split(/(?<=[.!?])\s+/)
    .some((sentence) => sentence.length >= 12 && line.includes(sentence.slice(0, 40)));
}
