import { storedText } from '../../extract/storedText';
import type { MemoryStore } from '../../memory/memoryStore';
import type { Kind, Layer } from '../../memory/types';
import { redactPersonal } from '../captureRedaction';
import { judgeAnswer } from './observationAnswer';
import type { Observation, ObservationKind } from './observationAnswer';
import { OBSERVATIONS_EVENT, observationRequest, sessionFiles } from './observationRequest';

/**
 * The engine's side of model-written observations (observationRequest.ts says what is sent): an
 * answer is checked (observationAnswer.ts) and each observation kept is written through the
 * normal write policy, marked: trust `model` (below `ingest`, the rules' trust), the tags
 * `model-written` and `observation`, the model in its context, the session as provenance. When
 * nothing can be kept the session has its rule-based memories only, and the reason is recorded
 * in the session's `capture-observations` event, with the basis the model read (so the same state
 * of the session is not asked about again).
 */

/** What the caller brings back for one session: the model's answer, or why there is none. */
export interface ProvidedObservations {
  session: string;
  /** The request's basis: which state of the session the model read. */
  basis?: string;
  text?: string;
  /** `provider:model`, e.g. `openai-compatible:llama3`. */
  model?: string;
  failure?: string;
}

export interface ObservationOutcome {
  session: string;
  by: 'model' | 'rules';
  model?: string;
  /** New memories written from the answer. */
  written: number;
  /** Observations of the answer that were refused, each with why. */
  refused: string[];
  /** Why the session keeps its rule-based memories only. */
  reason?: string;
}

const PLACE: Record<ObservationKind, { layer: Layer; kind: Kind; importance: number }> = {
  learned: { layer: 'semantic', kind: 'fact', importance: 0.4 },
  decision: { layer: 'procedural', kind: 'decision', importance: 0.45 },
  fix: { layer: 'procedural', kind: 'error-pattern', importance: 0.45 },
};

const CHANGED = 'the session changed since the model was asked (it is asked again next run)';

/** Checks and writes each session's answer; one outcome per session given. */
export function applyObservations(
  store: MemoryStore,
  provided: readonly ProvidedObservations[],
): ObservationOutcome[] {
  return provided.map((given) => applyOne(store, given));
}

function applyOne(store: MemoryStore, given: ProvidedObservations): ObservationOutcome {
  const { session } = given;
  const request = store.read((r) => observationRequest(r, session));
  const agent = store.read((r) =>
    r.value<string>('SELECT agent FROM capture_sessions WHERE id = ?', [session]),
  );
  if (!request || agent === undefined)
    return { session, by: 'rules', written: 0, refused: [], reason: 'no captured session to observe' };
  if (given.text !== undefined && given.basis !== request.basis)
    return { session, by: 'rules', written: 0, refused: [], reason: CHANGED };
  const model = given.model?.trim() || 'unknown model';
  const judged =
    given.failure !== undefined
      ? { kept: [], refused: [], failure: given.failure }
      : judgeAnswer(
          // Redacted before it is judged (a placeholder is grounded by the transcript's own) and kept.
          storedText(redactPersonal(given.text ?? '')),
          request.texts.join('\n'),
          store.read((r) => sessionFiles(r, session)),
        );
  let written = 0;
  if (judged.failure === undefined)
    for (const observation of judged.kept)
      if (rememberObservation(store, session, agent, model, observation)) written++;
  const outcome: ObservationOutcome =
    judged.failure === undefined
      ? { session, by: 'model', model, written, refused: judged.refused }
      : { session, by: 'rules', written: 0, refused: judged.refused, reason: judged.failure };
  store.write((tx, now) =>
    store.ledger.append(tx, now, {
      type: OBSERVATIONS_EVENT,
      agent,
      session,
      data: {
        basis: request.basis,
        by: outcome.by,
        ...(given.failure === undefined ? { model } : {}),
        written,
        refused: outcome.refused.length,
        ...(outcome.reason === undefined ? {} : { reason: storedText(outcome.reason) }),
      },
    }),
  );
  return outcome;
}

/** One observation as a memory (unless the session already gave this text). True when new. */
function rememberObservation(
  store: MemoryStore,
  session: string,
  agent: string,
  model: string,
  observation: Observation,
): boolean {
  const { title, text, files, kind } = observation;
  const body =
    title === '' || text.toLowerCase().startsWith(title.toLowerCase()) ? text : `${title}: ${text}`;
  const content = storedText(redactPersonal(body));
  const known = store.read((r) =>
    r.value('SELECT 1 FROM memories WHERE session = ? AND content = ? AND superseded_at IS NULL LIMIT 1', [
      session,
      content,
    ]),
  );
  if (known !== undefined) return false;
  const place = PLACE[kind];
  const filesNote = files.length > 0 ? `; files: ${files.slice(0, 10).join(', ')}` : '';
  const result = store.remember(
    {
      content,
      context: storedText(
        `Observation of a captured session written by ${model} (model-written)${filesNote}`,
      ),
      layer: place.layer,
      kind: place.kind,
      importance: place.importance,
      tags: ['capture', 'observation', 'model-written', agent],
      source: { conversation: session },
      session,
      agent,
      trust: 'model',
    },
    { agent, session, trust: 'model' },
  );
  return result.outcome === 'added';
}
