import type { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { PEER_CARD_KEY } from '../../engine/lifecycle/storedPeerCards';
import { creditedDocs } from './lifecycleMeasures';
import type { CardLines } from './lifecycleMeasures';
import type { RecallResult } from '../../engine/retrieval/recall';
import type { BenchQuery } from './recall/datasets';

/**
 * The development questions consolidation lost (`--misses`, development half only: the report
 * half is never looked at this way): for each turn of a question's evidence that was in the top
 * 10 before and is not after, where it went. The turn's memory and what it is now (superseded by
 * which consolidated memory, quoted by that memory's text or not), the consolidated memory's rank
 * among the active memories (40 deep, the drill-down's first pass) and in the history (100 deep),
 * the turn's own rank in the history, and what holds the top 10 after.
 */
export interface Lost {
  question: string;
  gold: string[];
  turns: Array<{
    turn: string;
    memory: string;
    owner: string | null;
    quoted: boolean;
    ownerActiveRank: number | null;
    ownerHistoryRank: number | null;
    turnHistoryRank: number | null;
    beforeVia: string;
  }>;
  after: string[];
}

type Call = <T>(method: string, params: Record<string, unknown>) => Promise<T>;

export async function lostQuestions(
  host: EngineDispatcher,
  call: Call,
  queries: readonly BenchQuery[],
  beforeHits: ReadonlyMap<string, RecallResult>,
  afterHits: ReadonlyMap<string, RecallResult>,
  docOf: ReadonlyMap<string, string[]>,
  beforeDocOf: ReadonlyMap<string, string[]>,
  quotedBy: ReadonlyMap<string, Set<string>>,
  cards: { before: CardLines; after: CardLines },
): Promise<Lost[]> {
  const memoryOfTurn = new Map<string, string>();
  for (const [id, docs] of beforeDocOf)
    if (docs.length === 1 && !isCard(host, id)) memoryOfTurn.set(docs[0]!, id);
  const lost: Lost[] = [];
  for (const q of queries) {
    const before = beforeHits.get(q.text)!;
    const after = afterHits.get(q.text)!;
    const top = (result: RecallResult, of: ReadonlyMap<string, string[]>, lines: CardLines) =>
      new Set(result.hits.slice(0, 10).flatMap((h) => creditedDocs(h.memory.id, q.text, of, lines)));
    const had = top(before, beforeDocOf, cards.before);
    const has = top(after, docOf, cards.after);
    const gone = q.gold.filter((g) => had.has(g) && !has.has(g));
    if (gone.length === 0) continue;
    const active = await call<RecallResult>('recall', {
      query: q.text,
      k: 40,
      readOnly: true,
      detail: false,
    });
    const history = await call<RecallResult>('recall', {
      query: q.text,
      k: 100,
      readOnly: true,
      includeInactive: true,
    });
    const rank = (result: RecallResult, id: string | null) => {
      const at = id === null ? -1 : result.hits.findIndex((h) => h.memory.id === id);
      return at === -1 ? null : at + 1;
    };
    const turns = gone.map((turn) => {
      const memory = memoryOfTurn.get(turn) ?? '?';
      const owner = ownerOf(host, memory);
      const via = before.hits
        .slice(0, 10)
        .map((h, i) => ({ h, i }))
        .filter(({ h }) => (beforeDocOf.get(h.memory.id) ?? []).includes(turn))
        .map(
          ({ h, i }) =>
            `${i + 1}:${isCard(host, h.memory.id) ? `card ${h.memory.content.split('\n')[0]}` : 'turn'}`,
        )
        .join(',');
      return {
        turn,
        memory,
        owner,
        quoted: owner !== null && (quotedBy.get(owner)?.has(memory) ?? false),
        ownerActiveRank: rank(active, owner),
        ownerHistoryRank: rank(history, owner),
        turnHistoryRank: rank(history, memory),
        beforeVia: via,
      };
    });
    const label = (id: string) =>
      isCard(host, id) ? 'card' : quotedBy.has(id) ? 'gist' : (docOf.get(id) ?? ['?']).join('+');
    lost.push({
      question: q.text,
      gold: q.gold,
      turns,
      after: after.hits.slice(0, 10).map((h) => label(h.memory.id)),
    });
  }
  return lost;
}

function isCard(host: EngineDispatcher, id: string): boolean {
  return (
    host.store.read((r) =>
      r.value<number>(
        `SELECT 1 FROM memories WHERE id = ? AND conflict_key LIKE '${PEER_CARD_KEY}%' LIMIT 1`,
        [id],
      ),
    ) !== undefined
  );
}

function ownerOf(host: EngineDispatcher, id: string): string | null {
  return (
    host.store.read((r) =>
      r.value<string>(
        `SELECT superseded_by FROM memories WHERE id = ? AND superseded_at IS NULL AND status = 'superseded'`,
        [id],
      ),
    ) ?? null
  );
}
