import { z } from 'zod';
import { viewerOf } from '../memory/visibility';
import { fileHistory } from '../capture/link/fileHistory';
import { currentBranch } from '../capture/link/gitCommits';
import { explainLines } from '../capture/link/why';
import { workspacePath } from '../capture/sessionRows';
import { DEFAULT_PRIME_BUDGET, primeBlock } from '../capture/prime/primeBlock';
import type { PrimeBlock } from '../capture/prime/primeBlock';
import { sessionRecap } from '../capture/sessionRecap';
import { sessionDetail } from '../capture/sessionDetail';
import { sessionTranscript } from '../capture/sessionTranscript';
import { invalidInput } from '../errors';
import { markInjected } from '../memory/injectionLedger';
import { MAX_CONTEXT_BUDGET, MIN_CONTEXT_BUDGET } from '../retrieval/contextBuilder';
import { sessionId } from './captureMethods';
import { defineMethod, methodParams } from './defineMethod';
import type { EngineContext } from './engineContext';
import { actorOf } from './params';
import { requiredText } from './paramFields';

const BUDGET_LIMIT = `must be a whole number of tokens from ${MIN_CONTEXT_BUDGET} to ${MAX_CONTEXT_BUDGET}`;
const LINE_LIMIT = 'must be a line number of 1 or more';

const WHY_PARAMS = methodParams({
  /** Workspace-relative or absolute. */
  file: requiredText.max(1000),
  line: z.number().int(LINE_LIMIT).min(1, LINE_LIMIT).optional(),
});

const PRIME_PARAMS = methodParams({
  budget: z
    .number()
    .int(BUDGET_LIMIT)
    .min(MIN_CONTEXT_BUDGET, BUDGET_LIMIT)
    .max(MAX_CONTEXT_BUDGET, BUDGET_LIMIT)
    .optional(),
  /** The conversation whose injection ledger records the block (default: the acting session). */
  conversation: z.string().min(1).max(200).optional(),
});

const SESSION_PARAMS = methodParams({ session: requiredText.max(200) });
const FILE_PARAMS = methodParams({ file: requiredText.max(1000) });

function root(engine: EngineContext): string {
  const workspace = engine.code?.options.root;
  if (workspace === undefined) throw invalidInput('this needs a workspace (not --db or --user alone)');
  return workspace;
}

/**
 * What captured sessions explain about the code (engine/capture/link/, engine/capture/prime/).
 * - `why` {file, line?} -> the sessions, decisions and commits behind a file or one of its lines.
 * - `prime` {budget?, conversation?} -> the block a fresh session on this workspace and branch
 *   starts with; its memories are recorded in the conversation's injection ledger.
 * - `captureTranscript` {session} -> a session's turns, redacted as stored.
 * - `fileHistory` {file} -> what every session did to a file, and which commits carried it.
 * - `captureRecap` {session} -> a past session in lines (sessionRecap.ts).
 * - `captureSessionDetail` {session} -> its linked commits, changed files and commands (the Sessions view).
 */
export const LINK_METHODS = {
  why: defineMethod({
    params: WHY_PARAMS,
    // Links the file's sessions to their commits first (derived rows, made again by any run),
    // except for a read-only caller, which gets the links of the last capture run.
    write: false,
    run: (engine, p) =>
      explainLines(
        engine.store,
        root(engine),
        { file: p.file, line: p.line },
        { relink: p.readOnly !== true },
      ),
  }),
  prime: defineMethod({
    params: PRIME_PARAMS,
    write: true,
    prepare: async (engine, p): Promise<PrimeBlock> => {
      const workspace = engine.code?.options.root;
      const branch = workspace === undefined ? undefined : await currentBranch(workspace);
      return engine.store.read((r) =>
        primeBlock(r, {
          branch: branch ?? null,
          budget: p.budget ?? DEFAULT_PRIME_BUDGET,
          viewer: viewerOf(p),
        }),
      );
    },
    run: ({ store }, p, block) => {
      const conversation = p.conversation ?? actorOf(p).session;
      if (conversation !== undefined && block.included.length > 0) {
        store.write((tx, now) =>
          markInjected(
            tx,
            conversation,
            block.included.map((i) => i.id),
            now,
          ),
        );
      }
      return block;
    },
  }),
  captureTranscript: defineMethod({
    params: SESSION_PARAMS,
    write: false,
    run: ({ store }, p) => store.read((r) => sessionTranscript(r, sessionId(r, p.session))),
  }),
  captureSessionDetail: defineMethod({
    params: SESSION_PARAMS,
    write: false,
    run: ({ store }, p) => store.read((r) => sessionDetail(r, sessionId(r, p.session))),
  }),
  captureRecap: defineMethod({
    params: SESSION_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) => {
        const id = sessionId(r, p.session);
        return { session: id, lines: sessionRecap(r, id) };
      }),
  }),
  fileHistory: defineMethod({
    params: FILE_PARAMS,
    write: false,
    run: (engine, p) => {
      const workspace = root(engine);
      const file = workspacePath(p.file, workspace, workspace);
      return { file, sessions: engine.store.read((r) => fileHistory(r, file)) };
    },
  }),
} as const;
