import { z } from 'zod';
import { observationMode, setObservationMode } from '../capture/captureSettings';
import { applyObservations } from '../capture/observations/modelObservations';
import { observationRequests } from '../capture/observations/observationRequest';
import { sessionId } from './captureMethods';
import { defineMethod, methodParams } from './defineMethod';

/**
 * Model-written observations of captured sessions (engine/capture/observations/), in the two
 * steps a caller with a language model takes, and the workspace's opt-in:
 * - `captureObservationMode` {mode: rules | model} -> the mode now in force. `rules` (the
 *   default) never asks a model; `model` lets `engram capture run` ask one (when configured).
 * - `captureObservationRequests` {session?} -> the mode, and per session waiting for a model
 *   (or the one named) what would be sent: redacted turns and commands, the instruction, the basis.
 * - `captureObservations` {provided: [{session, basis?, text?, model?, failure?}]} -> per session,
 *   the observations written (trust `model`, tagged `model-written`) or why the session keeps
 *   its rule-based memories only. A text past the limit is not refused here: it is an unfit
 *   answer, recorded with its reason like any other.
 */
const MODE_PARAMS = methodParams({
  mode: z.enum(['rules', 'model'], { error: 'mode must be rules or model' }),
});

const REQUESTS_PARAMS = methodParams({
  session: z.string().max(200).optional(),
});

const APPLY_PARAMS = methodParams({
  provided: z
    .array(
      z.object({
        session: z.string().min(1).max(200),
        basis: z.string().max(100).optional(),
        text: z.string().max(1_000_000).optional(),
        model: z.string().max(300).optional(),
        failure: z.string().max(1000).optional(),
      }),
      { error: 'provided must be a list of {session, basis?, text?, model?, failure?}' },
    )
    .max(1000),
});

export const OBSERVATION_METHODS = {
  captureObservationMode: defineMethod({
    params: MODE_PARAMS,
    write: true,
    run: ({ store }, p) => {
      store.write((tx) => setObservationMode(tx, p.mode));
      return { mode: store.read(observationMode) };
    },
  }),
  captureObservationRequests: defineMethod({
    params: REQUESTS_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) => {
        const mode = observationMode(r);
        // Opted out, only a named session is asked about: a run reads the mode and nothing else.
        if (p.session === undefined && mode === 'rules') return { mode, requests: [] };
        const named = p.session === undefined ? undefined : [sessionId(r, p.session)];
        return { mode, requests: observationRequests(r, Date.now(), named) };
      }),
  }),
  captureObservations: defineMethod({
    params: APPLY_PARAMS,
    write: true,
    run: ({ store }, p) => applyObservations(store, p.provided),
  }),
} as const;
