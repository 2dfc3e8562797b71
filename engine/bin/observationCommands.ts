import type { Command } from 'commander';
import type { MethodResult } from '../api/methods';
import { observeWithModel } from '../capture/observations/observeWithModel';
import type { ObservationRunReport } from '../capture/observations/observeWithModel';
import { openAiSummariser, summaryEndpointFromEnv } from '../lifecycle/openAiSummariser';
import type { Summariser } from '../lifecycle/summariser';
import type { CliCall, Invoke } from './cliArguments';

/**
 * `engram capture observations rules|model` (the workspace's opt-in: may a language model write
 * observations of its sessions) and `engram capture observe [--session ID]` (ask it now). The
 * model is the OpenAI-compatible endpoint in the environment (ENGRAM_SUMMARY_URL, as for
 * consolidation's summaries); with none, nothing is sent and the sessions wait.
 */
export function registerObservationCommands(capture: Command, invoke: Invoke, env: NodeJS.ProcessEnv): void {
  capture
    .command('observations')
    .argument(
      '<mode>',
      'rules (default: no language model) or model (rules, and a model writes observations too)',
    )
    .description(
      'whether a language model (ENGRAM_SUMMARY_URL) also writes observations of the captured sessions: off (rules) until set to model',
    )
    .action((mode: string) =>
      invoke('captureObservationMode', { mode }, (r) =>
        modeLine((r as MethodResult<'captureObservationMode'>).mode),
      ),
    );
  capture
    .command('observe')
    .option('--session <id>', 'this session (its id or a unique prefix), asked again whatever its state')
    .description(
      'ask the language model (ENGRAM_SUMMARY_URL) for the observations of the sessions waiting for it, now; sends their redacted turns',
    )
    .action((o: { session?: string }) => {
      // `--session` is also the global option (the acting session): after `observe` it names the one to ask about.
      const session = o.session ?? capture.parent?.opts<{ session?: string }>().session;
      return invoke(
        'captureObservationRequests',
        {},
        (r) => observationLines(r as ObservationRunReport).join('\n') || 'no session waits for observations',
        undefined,
        (call) => observeSessions(call, env, session),
      );
    });
}

/** Asks the configured model about the sessions waiting (or `session`), through the engine's two steps. */
export function observeSessions(
  call: CliCall,
  env: NodeJS.ProcessEnv,
  session?: string,
): Promise<ObservationRunReport> {
  return observeWithModel(
    {
      requests: (params) => call('captureObservationRequests', params),
      apply: (params) => call('captureObservations', params),
    },
    summariserFromEnv(env),
    session === undefined ? {} : { session },
  );
}

/** The endpoint's summariser, or why there is none: a bad setting says so and fails nothing else. */
function summariserFromEnv(env: NodeJS.ProcessEnv): Summariser | { unavailable: string } {
  try {
    const endpoint = summaryEndpointFromEnv(env);
    return endpoint
      ? openAiSummariser(endpoint)
      : { unavailable: 'no language model configured (ENGRAM_SUMMARY_URL is not set)' };
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

/** What a run of the model gave, one line per session; nothing when nothing was asked or waits. */
export function observationLines(report: ObservationRunReport): string[] {
  if (report.unavailable !== undefined)
    return report.waiting > 0
      ? [`observations: ${report.waiting} session(s) wait for a model: ${report.unavailable}`]
      : [];
  return report.outcomes.map((o) =>
    o.by === 'model'
      ? `observations of ${o.session}: ${o.written} written by ${o.model ?? 'the model'} (model-written)` +
        (o.refused.length > 0 ? `, ${o.refused.length} refused (${o.refused[0]})` : '')
      : `observations of ${o.session}: rules only: ${o.reason ?? 'no answer'}`,
  );
}

function modeLine(mode: 'rules' | 'model'): string {
  return mode === 'model'
    ? 'observations: rules, and the language model in ENGRAM_SUMMARY_URL after each capture run (redacted turns are sent to it)'
    : 'observations: rules only (no language model is asked)';
}
