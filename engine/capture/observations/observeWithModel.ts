import { askForSummaries } from '../../lifecycle/summariser';
import type { Summariser, SummaryRequest } from '../../lifecycle/summariser';
import type { ObservationMode } from '../captureSettings';
import type { ObservationOutcome, ProvidedObservations } from './modelObservations';
import { OBSERVATION_RULE } from './observationRequest';

/**
 * The caller's side of model-written observations, as consolidateWithModel is for summaries: ask
 * the engine what to send (`captureObservationRequests`), ask the model one session at a time
 * with no transaction open, through any `Summariser` provider (an OpenAI-compatible endpoint, MCP
 * sampling), then hand the answers back (`captureObservations`), which checks and writes them.
 */

/** The two methods as a caller reaches them (Engram.call, the CLI's `call`). */
export interface ObservationCalls {
  requests(params: { session?: string }): Promise<{
    mode: ObservationMode;
    requests: Array<{ session: string; request: SummaryRequest }>;
  }>;
  apply(params: { provided: ProvidedObservations[] }): Promise<ObservationOutcome[]>;
}

export interface ObservationRunReport {
  /** Whether the workspace opted in (`engram capture observations model`). */
  mode: ObservationMode;
  /** Sessions the model was asked about. */
  asked: number;
  outcomes: ObservationOutcome[];
  /** Why no model was asked although sessions were waiting (none configured). */
  unavailable?: string;
  /** Sessions waiting for a model (when none was asked). */
  waiting: number;
}

/**
 * Asks the model about the sessions waiting for it (or the one named, whatever the workspace's
 * mode: naming it is asking). With the mode `rules` and no session named, asks nothing. Without a
 * model (`unavailable`), records nothing: the sessions wait for one.
 */
export async function observeWithModel(
  calls: ObservationCalls,
  summariser: Summariser | { unavailable: string },
  options: { session?: string; timeoutMs?: number } = {},
): Promise<ObservationRunReport> {
  const plan = await calls.requests(options.session === undefined ? {} : { session: options.session });
  const report: ObservationRunReport = { mode: plan.mode, asked: 0, outcomes: [], waiting: 0 };
  if (plan.mode === 'rules' && options.session === undefined) return report;
  if ('unavailable' in summariser)
    return { ...report, unavailable: summariser.unavailable, waiting: plan.requests.length };
  const answers = await askForSummaries(
    plan.requests.map((r) => ({ members: [r.session], request: r.request })),
    summariser,
    {
      maxClusters: OBSERVATION_RULE.maxSessions,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    },
  );
  const provided = answers.map((a) => ({
    session: a.members[0] as string,
    ...(a.basis === undefined ? {} : { basis: a.basis }),
    ...(a.text === undefined ? {} : { text: a.text }),
    ...(a.model === undefined ? {} : { model: a.model }),
    ...(a.failure === undefined ? {} : { failure: a.failure }),
  }));
  if (provided.length === 0) return report;
  return { ...report, asked: provided.length, outcomes: await calls.apply({ provided }) };
}
