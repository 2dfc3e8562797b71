import { z } from 'zod';
import { captureStatus, runCapture } from '../capture/captureRun';
import { captureEnabled, setCaptureEnabled } from '../capture/captureSettings';
import { changeExcludes } from '../capture/captureExcludes';
import { CAPTURE_AGENTS } from '../capture/events';
import { purgeSessions, sessionsBefore } from '../capture/purge';
import { rebuildCapture } from '../capture/rebuild';
import { listSessions } from '../capture/sessionList';
import { openCodeSources } from '../capture/openCode/openCodeSources';
import { findSources } from '../capture/workspaceSources';
import type { AgentStores } from '../capture/workspaceSources';
import type { PurgeReport } from '../capture/purge';
import { invalidInput, notFound } from '../errors';
import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';
import { defineMethod, methodParams } from './defineMethod';
import type { EngineContext } from './engineContext';
import { NO_PARAMS } from './memoryParams';
import { requiredText, timeParam, wholeNumber } from './paramFields';

const absolutePath = requiredText.refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), {
  message: 'must be an absolute path',
});

/** The agents' stores are the host's (agentStores in capture/workspaceSources.ts). */
const STORE_FIELDS = {
  claudeProjects: absolutePath,
  codexSessions: absolutePath,
  geminiTmp: absolutePath,
  /** VS Code's user folders and Cline's and Roo Code's storage (editorSources.ts); none read when absent. */
  editors: z
    .object({
      vscodeUser: z.array(absolutePath),
      clineData: z.array(absolutePath),
      rooData: z.array(absolutePath),
    })
    .optional(),
  /** OpenCode's data folder (`~/.local/share/opencode`); not read when absent. */
  opencodeData: absolutePath.optional(),
};

const CAPTURE_SOURCES_PARAMS = methodParams(STORE_FIELDS);

const CAPTURE_RUN_PARAMS = methodParams({
  ...STORE_FIELDS,
  /** The agents to read (all when absent). */
  agent: z
    .array(z.enum(CAPTURE_AGENTS), { error: `must be a list of ${CAPTURE_AGENTS.join(', ')}` })
    .optional(),
  since: timeParam.optional(),
  /** From an agent's hook: while capture is off, read nothing and answer so, without an error. */
  ifEnabled: z.boolean().optional(),
});

/** `captureExclude`: agents never read, workspace paths (.gitignore patterns) whose records are not kept. */
const CAPTURE_EXCLUDE_PARAMS = methodParams({
  agent: z
    .array(z.enum(CAPTURE_AGENTS), { error: `must be a list of ${CAPTURE_AGENTS.join(', ')}` })
    .optional(),
  path: z.array(requiredText.max(500), { error: 'must be a list of path patterns' }).optional(),
  remove: z.boolean().optional(),
});

/** `captureSessions`: the most recent first. */
const CAPTURE_SESSIONS_PARAMS = methodParams({
  agent: z.enum(CAPTURE_AGENTS, { error: `must be one of ${CAPTURE_AGENTS.join(', ')}` }).optional(),
  limit: wholeNumber(1, 1000, 'must be 1 to 1000').optional(),
});

const CAPTURE_PURGE_PARAMS = methodParams({
  session: z.string().optional(),
  before: timeParam.optional(),
});

function storesOf(p: z.infer<typeof CAPTURE_SOURCES_PARAMS>): AgentStores {
  return {
    claudeProjects: p.claudeProjects,
    codexSessions: p.codexSessions,
    geminiTmp: p.geminiTmp,
    ...(p.editors ? { editors: p.editors } : {}),
    ...(p.opencodeData === undefined ? {} : { opencodeData: p.opencodeData }),
  };
}

function workspaceRoot(engine: EngineContext): string {
  const root = engine.code?.options.root;
  if (root === undefined) throw invalidInput('capture needs a workspace (not --db or --user alone)');
  return root;
}

/** A session by its id or a unique prefix of 6+ characters. */
export function sessionId(tx: SqlReader, id: string): string {
  if (tx.value('SELECT 1 FROM capture_sessions WHERE id = ?', [id]) !== undefined) return id;
  const matches =
    id.length >= 6
      ? tx.all<{ id: string }>('SELECT id FROM capture_sessions WHERE substr(id, 1, ?) = ? LIMIT 2', [
          id.length,
          id,
        ])
      : [];
  if (matches.length === 1) return (matches[0] as { id: string }).id;
  throw matches.length > 1
    ? invalidInput(`session "${id}" is ambiguous: give more of its id`)
    : notFound(`no captured session "${id}"`);
}

function statusOf(engine: EngineContext) {
  return { root: engine.code?.options.root ?? null, ...engine.store.read(captureStatus) };
}

function switchCapture(enabled: boolean) {
  return defineMethod({
    params: NO_PARAMS,
    write: true,
    run: (engine) => {
      engine.store.write((tx, now) => setCaptureEnabled(tx, enabled, now));
      return statusOf(engine);
    },
  });
}

/**
 * After a purge, two snapshots: the first writes the database without the purged rows, the second
 * (after a marker write) makes that the kept previous snapshot and compacts the journal past the
 * writes that held them, so no file of the store still has them.
 */
async function forgetOnDisk(store: MemoryStore): Promise<void> {
  await store.db.snapshot();
  store.write((tx, now) =>
    tx.run("INSERT OR REPLACE INTO capture_settings (key, value) VALUES ('purged_at', ?)", [String(now)]),
  );
  await store.db.snapshot();
}

/**
 * Capture of the agents' sessions (engine/capture/). Off until enabled for the workspace.
 * - `captureEnable` / `captureDisable` -> the status.
 * - `captureStatus` -> enabled, counts of files, records and sessions by agent.
 * - `captureSources` {claudeProjects, codexSessions, geminiTmp, editors?} -> this workspace's session
 *   files by agent, read or not (the first-run prompt asks only when there are some). Reads only
 *   what telling a file's workspace takes (workspaceSources.ts); nothing is stored.
 * - `captureRun` {claudeProjects, codexSessions, geminiTmp, editors?, agent?, since?, ifEnabled?} -> what each file gave. Refuses,
 *   reading nothing, while capture is off. Not an exactly-once write: an ingest is idempotent and
 *   long, and commits batch by batch.
 * - `captureExclude` {agent?, path?, remove?} -> the status with the new excludes.
 * - `captureSessions` {agent?, limit?} -> captured sessions, the most recent first.
 * - `captureRebuild` -> the sessions derived again from the ledger alone (capture/rebuild.ts).
 * - `capturePurge` {session | before} -> what was deleted, for real (see capture/purge.ts).
 */
export const CAPTURE_METHODS = {
  captureEnable: switchCapture(true),
  captureDisable: switchCapture(false),
  captureStatus: defineMethod({
    params: NO_PARAMS,
    write: false,
    run: statusOf,
  }),
  captureSources: defineMethod({
    params: CAPTURE_SOURCES_PARAMS,
    write: false,
    run: async (engine, p) => {
      const root = workspaceRoot(engine);
      const files = await findSources(root, storesOf(p));
      if (p.opencodeData !== undefined) {
        const rows = await openCodeSources(p.opencodeData, root, {
          ...(engine.sqlWasmPath === undefined ? {} : { sqlWasmPath: engine.sqlWasmPath }),
        });
        rows.close(new Set(rows.sources.map((s) => s.path))); // nothing was read: not quiet
        files.push(...rows.sources.map((s) => ({ agent: s.agent, path: s.path })));
      }
      const byAgent = new Map<string, string[]>();
      for (const f of files) byAgent.set(f.agent, [...(byAgent.get(f.agent) ?? []), f.path]);
      return { agents: [...byAgent].map(([agent, paths]) => ({ agent, files: paths })) };
    },
  }),
  captureRun: defineMethod({
    params: CAPTURE_RUN_PARAMS,
    write: false,
    run: (engine, p) =>
      p.ifEnabled === true && !engine.store.read(captureEnabled)
        ? Promise.resolve({
            root: workspaceRoot(engine),
            sources: [],
            summaries: 0,
            conventions: 0,
            links: 0,
            linksUnread: 0,
            lessons: 0,
          })
        : runCapture(engine.store, {
            root: workspaceRoot(engine),
            stores: storesOf(p),
            ...(engine.sqlWasmPath === undefined ? {} : { sqlWasmPath: engine.sqlWasmPath }),
            ...(p.agent ? { agents: p.agent } : {}),
            ...(p.since === undefined ? {} : { since: p.since }),
          }),
  }),
  captureExclude: defineMethod({
    params: CAPTURE_EXCLUDE_PARAMS,
    write: true,
    run: (engine, p) => {
      if (!p.agent?.length && !p.path?.length) throw invalidInput('give an agent or a path to exclude');
      engine.store.write((tx) =>
        changeExcludes(tx, { agents: p.agent ?? [], paths: p.path ?? [], remove: p.remove === true }),
      );
      return statusOf(engine);
    },
  }),
  captureSessions: defineMethod({
    params: CAPTURE_SESSIONS_PARAMS,
    write: false,
    run: ({ store }, p) => store.read((r) => listSessions(r, p.limit ?? 20, p.agent)),
  }),
  captureRebuild: defineMethod({
    params: NO_PARAMS,
    write: false,
    run: (engine) => rebuildCapture(engine.store, workspaceRoot(engine)),
  }),
  capturePurge: defineMethod({
    params: CAPTURE_PURGE_PARAMS,
    write: false,
    run: async ({ store }, p): Promise<PurgeReport> => {
      if ((p.session === undefined) === (p.before === undefined)) {
        throw invalidInput('give exactly one of session (a session id) and before (a time)');
      }
      const report = store.write((tx, now) =>
        purgeSessions(
          tx,
          p.session !== undefined ? [sessionId(tx, p.session)] : sessionsBefore(tx, p.before as number),
          now,
        ),
      );
      if (report.sessions.length > 0) {
        store.entitiesChanged(); // the purge may have deleted entities the linker has cached
        await forgetOnDisk(store);
      }
      return report;
    },
  }),
} as const;
