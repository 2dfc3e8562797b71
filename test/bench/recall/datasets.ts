import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { cosqaHalf } from './cosqaSplit';
import type { CosqaHalf } from './cosqaSplit';
import { questionHalf } from './questionSplit';
import type { QuestionHalf } from './questionSplit';

/**
 * Loaders for the retrieval benchmarks, each into the same shape: corpora of documents and the
 * queries to run against each. They take file paths so the same code runs on held-out files of
 * the same formats.
 */
export interface BenchDoc {
  id: string;
  text: string;
  /** Extra text stored as the memory's context (e.g. assistant turns). */
  context?: string;
  /** When the document was written (ms), if known. */
  time?: number;
  /** The conversation session it belongs to, if any (documents are in write order within it). */
  session?: string;
}

export interface BenchQuery {
  id: string;
  text: string;
  gold: string[];
  category: string;
  /** The half of the benchmark's fixed split the query is in, where it has one (tune on one, report the other). */
  half?: QuestionHalf;
}

export interface BenchCorpus {
  name: string;
  docs: BenchDoc[];
  queries: BenchQuery[];
}

/** A corpus's documents as `rememberMany` takes them, into one layer and kind. */
export function memoryInputs(
  docs: readonly BenchDoc[],
  layer: string,
  kind: string,
): Array<Record<string, unknown>> {
  return docs.map((d) => ({
    content: d.text,
    context: d.context,
    validFrom: d.time,
    session: d.session,
    layer,
    kind,
  }));
}

/** LoCoMo conversations 1-3 (of the five in locomo-dev5) are tuned on, 4-5 reported (`--locomo-conversations`). */
export const LOCOMO_TUNING_CONVERSATIONS = 3;

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Array<{ question: string; evidence: string[]; category: number }>;
}

/** "1:56 pm on 8 May, 2023" -> ms (UTC). */
export function parseLocomoDate(text: string): number | undefined {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(text);
  if (!match) return undefined;
  const [, h, m, ampm, day, month, year] = match;
  const monthIndex = new Date(`${month} 1, 2000`).getMonth();
  if (Number.isNaN(monthIndex)) return undefined;
  const hour = (Number(h) % 12) + (ampm!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(year), monthIndex, Number(day), hour, Number(m));
}

/**
 * LoCoMo: one corpus per conversation; turns with speaker and session date; QA of categories 1-4.
 * Its split is by conversation: the first three are the tuning half, the rest the reporting half.
 */
export function loadLocomo(file: string): BenchCorpus[] {
  const samples = JSON.parse(readFileSync(file, 'utf8')) as LocomoSample[];
  return samples.map((sample, index) => {
    const half: QuestionHalf = index < LOCOMO_TUNING_CONVERSATIONS ? 'tuning' : 'reporting';
    const docs: BenchDoc[] = [];
    const conversation = sample.conversation;
    const sessions = Object.keys(conversation)
      .map((key) => /^session_(\d+)$/.exec(key)?.[1])
      .filter((n): n is string => n !== undefined)
      .sort((a, b) => Number(a) - Number(b));
    for (const n of sessions) {
      const rawDate = conversation[`session_${n}_date_time`];
      const dateText = typeof rawDate === 'string' ? rawDate : '';
      const time = parseLocomoDate(dateText);
      for (const turn of conversation[`session_${n}`] as LocomoTurn[]) {
        const caption = turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : '';
        docs.push({
          id: turn.dia_id,
          text: `${turn.speaker} (${dateText}): ${turn.text}${caption}`,
          time,
          session: `${sample.sample_id}-S${n}`,
        });
      }
    }
    const known = new Set(docs.map((d) => d.id));
    const queries = sample.qa
      .filter((qa) => qa.category >= 1 && qa.category <= 4)
      .map((qa, i) => ({
        id: `${sample.sample_id}-q${i}`,
        text: qa.question,
        // The README's loader rule: split on [;\s]+, strip leading zeros in the turn, drop unknown ids.
        gold: [
          ...new Set(
            qa.evidence
              .flatMap((e) => e.split(/[;\s]+/))
              .map((e) => e.replace(/^D:?(\d+):0*(\d+)$/, 'D$1:$2'))
              .filter((e) => known.has(e)),
          ),
        ],
        category: String(qa.category),
        half,
      }))
      .filter((q) => q.gold.length > 0);
    return { name: sample.sample_id, docs, queries };
  });
}

interface LmeRecord {
  question_id: string;
  question_type: string;
  question: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: Array<Array<{ role: string; content: string }>>;
  answer_session_ids: string[];
}

/** "2023/05/23 (Tue) 19:11" -> ms (UTC). */
export function parseLmeDate(text: string): number | undefined {
  const match = /(\d{4})\/(\d{2})\/(\d{2})\D+(\d{2}):(\d{2})/.exec(text);
  return match
    ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]))
    : undefined;
}

/** LongMemEval oracle: every unique session pooled into one corpus; the non-abstention questions. */
export function loadLongMemEval(file: string): BenchCorpus {
  const raw = readFileSync(file);
  const records = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as LmeRecord[];
  const docs = new Map<string, BenchDoc>();
  for (const record of records) {
    record.haystack_session_ids.forEach((id, i) => {
      if (docs.has(id)) return;
      const turns = record.haystack_sessions[i] ?? [];
      docs.set(id, {
        id,
        text: turns
          .filter((t) => t.role === 'user')
          .map((t) => t.content)
          .join('\n'),
        context: turns
          .filter((t) => t.role !== 'user')
          .map((t) => t.content)
          .join('\n'),
        time: parseLmeDate(record.haystack_dates[i] ?? ''),
      });
    });
  }
  const queries = records
    .filter((r) => !r.question_id.endsWith('_abs'))
    .map((r) => ({
      id: r.question_id,
      text: r.question,
      gold: r.answer_session_ids,
      category: r.question_type,
      half: questionHalf(r.question_id),
    }));
  return { name: 'longmemeval-oracle', docs: [...docs.values()], queries };
}

/**
 * CoSQA: the functions of code_idx_map as the corpus, the dev queries with one gold function each;
 * with `half`, only that half's queries (cosqaSplit.ts), over the whole corpus.
 */
export function loadCosqa(queriesFile: string, corpusFile: string, half?: CosqaHalf): BenchCorpus {
  const corpus = JSON.parse(readFileSync(corpusFile, 'utf8')) as Record<string, number>;
  const docs = Object.entries(corpus).map(([code, id]) => ({ id: String(id), text: code }));
  const raw = JSON.parse(readFileSync(queriesFile, 'utf8')) as Array<{
    idx: string;
    doc: string;
    retrieval_idx: string;
  }>;
  const queries = raw
    .filter((q) => half === undefined || cosqaHalf(q.idx) === half)
    .map((q) => ({
      id: q.idx,
      text: q.doc,
      gold: [String(q.retrieval_idx)],
      // The bench reports per category: here per half, so one run gives both halves' figures.
      category: cosqaHalf(q.idx),
    }));
  return { name: half ? `cosqa-dev-${half}` : 'cosqa-dev', docs, queries };
}
