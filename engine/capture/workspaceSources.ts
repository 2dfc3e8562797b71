import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { editorSources, editorStores } from './editorSources';
import type { EditorStores } from './editorSources';
import { chatOfProject, geminiChatFiles, geminiCheckpointFiles, geminiProjectHash } from './geminiSources';
import type { CaptureAgent } from './events';
import { jsonRecord } from './events';
import { list, readHeadBytes } from './storeFiles';

/** Where the agents keep their sessions. Made by the host (agentStores), never guessed here. */
export interface AgentStores {
  /** Claude Code's `projects` directory. */
  claudeProjects: string;
  /** Codex CLI's `sessions` directory. */
  codexSessions: string;
  /** Gemini CLI's `tmp` directory (a folder per project, chats inside). */
  geminiTmp: string;
  /** VS Code's, Cline's and Roo Code's folders (editorSources.ts); none when absent. */
  editors?: EditorStores;
  /** OpenCode's data folder (its database and older JSON storage); not read when absent. */
  opencodeData?: string;
}

/** The stores for this user: `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `XDG_DATA_HOME`... move them, as they do for the agents. */
export function agentStores(
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform = process.platform,
): AgentStores {
  return {
    editors: editorStores(env, home, platform),
    claudeProjects: path.join(env['CLAUDE_CONFIG_DIR'] || path.join(home, '.claude'), 'projects'),
    codexSessions: path.join(env['CODEX_HOME'] || path.join(home, '.codex'), 'sessions'),
    geminiTmp: path.join(env['GEMINI_CLI_HOME'] || home, '.gemini', 'tmp'),
    // OpenCode takes XDG's data folder on every platform (xdg-basedir), also on macOS and Windows.
    opencodeData: path.join(env['XDG_DATA_HOME'] || path.join(home, '.local', 'share'), 'opencode'),
  };
}

export interface SourceFile {
  agent: CaptureAgent;
  path: string;
}

export interface FindOptions {
  agents?: readonly CaptureAgent[];
  /** Only files written at or after this time (epoch ms). */
  since?: number;
  /** Reads the start of a file (tests count the calls). @default the first 64 KiB */
  readHead?: (file: string) => Promise<string>;
}

/** True when `dir` is `root` or inside it. */
export function isInside(dir: string, root: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(dir));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Claude Code's directory name for a working directory: every non-alphanumeric character becomes `-`. */
export function claudeProjectName(cwd: string): string {
  return path.resolve(cwd).replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * Whether a file belongs to a workspace, once known: the directory a session names at its start
 * never changes, so a watch (or a long-lived host) reads the head of each file of the agents'
 * stores once, not every round. In memory only: nothing about other folders' files is stored.
 */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 50_000;

/**
 * The session files of this workspace: those whose working directory is `root` or inside it.
 * Claude Code's folders are chosen by their encoded name (this workspace's, or one that may be a
 * folder inside it), then each file by the `cwd` its records name, since names collide. A Codex
 * rollout names its directory only inside, so the first records of each (written since `since`)
 * are read to learn it, once per process; nothing else of a file of another folder is read, and nothing of it is
 * kept. Aider's history lives in the workspace itself. A Gemini CLI chat names its project by a
 * hash of the root it ran in: only sessions run at the workspace root are matched.
 */
export async function findSources(
  root: string,
  stores: AgentStores,
  options: FindOptions = {},
): Promise<SourceFile[]> {
  const wanted = (agent: CaptureAgent) => options.agents === undefined || options.agents.includes(agent);
  const readHead = options.readHead ?? readHeadBytes;
  const found: SourceFile[] = [];
  /** `belongs`: whether the file's head says it is this workspace's; undefined: it does not say yet. */
  const keep = async (agent: CaptureAgent, file: string, belongs: (head: string) => boolean | undefined) => {
    if (options.since !== undefined && (await mtime(file)) < options.since) return;
    const key = `${root}\0${file}`;
    let mine = verdicts.get(key);
    if (mine === undefined) {
      mine = belongs(await readHead(file).catch(() => ''));
      // No directory named yet (a file just created): ask again next time.
      if (mine === undefined) return;
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(key, mine);
    }
    if (mine) found.push({ agent, path: file });
  };
  const inRoot = (cwdOf: (head: string) => string | undefined) => (head: string) => {
    const cwd = cwdOf(head);
    return cwd === undefined ? undefined : isInside(cwd, root);
  };
  if (wanted('claude-code')) {
    for (const file of await claudeCandidates(root, stores.claudeProjects))
      await keep('claude-code', file, inRoot(firstCwd));
  }
  if (wanted('codex')) {
    for (const file of await codexCandidates(stores.codexSessions))
      await keep('codex', file, inRoot(codexCwd));
  }
  if (wanted('gemini')) {
    // Gemini CLI names a session's project by the SHA-256 of its root, not by its directory.
    const hash = geminiProjectHash(root);
    for (const file of await geminiChatFiles(stores.geminiTmp))
      await keep('gemini', file, (head) => chatOfProject(head, hash));
    for (const file of await geminiCheckpointFiles(stores.geminiTmp, root))
      await keep('gemini', file, () => true);
  }
  if (stores.editors) {
    for (const source of await editorSources(stores.editors, wanted, (dir) => isInside(dir, root))) {
      if (options.since === undefined || (await mtime(source.path)) >= options.since) found.push(source);
    }
  }
  if (wanted('aider')) {
    const history = path.join(root, '.aider.chat.history.md');
    if ((await mtime(history)) >= (options.since ?? 0) && (await exists(history))) {
      found.push({ agent: 'aider', path: history });
    }
  }
  return found;
}

async function claudeCandidates(root: string, projects: string): Promise<string[]> {
  const name = claudeProjectName(root);
  const dirs = (await list(projects)).filter((d) => d === name || d.startsWith(`${name}-`));
  const files: string[] = [];
  for (const dir of dirs) {
    const full = path.join(projects, dir);
    for (const entry of await list(full)) {
      const entryPath = path.join(full, entry);
      if (entry.endsWith('.jsonl')) files.push(entryPath);
      // <session>/subagents/agent-<id>.jsonl
      const subagents = path.join(entryPath, 'subagents');
      for (const sub of await list(subagents))
        if (sub.endsWith('.jsonl')) files.push(path.join(subagents, sub));
    }
  }
  return files.sort();
}

/**
 * Every rollout, whatever its day folder: that is the day a session started, and a resumed session
 * is appended to in its old folder, so `--since` goes by each file's last write instead.
 */
async function codexCandidates(sessions: string): Promise<string[]> {
  const files: string[] = [];
  for (const year of await list(sessions)) {
    for (const month of await list(path.join(sessions, year))) {
      for (const day of await list(path.join(sessions, year, month))) {
        const dir = path.join(sessions, year, month, day);
        for (const file of await list(dir)) {
          if (file.startsWith('rollout-') && file.endsWith('.jsonl')) files.push(path.join(dir, file));
        }
      }
    }
  }
  return files.sort();
}

/** The first `cwd` a Claude Code record names. */
function firstCwd(head: string): string | undefined {
  for (const line of head.split('\n')) {
    const cwd = jsonRecord(line)?.['cwd'];
    if (typeof cwd === 'string') return cwd;
  }
  return undefined;
}

/** A rollout's directory: in `session_meta` (current shape) or the environment block (older). */
function codexCwd(head: string): string | undefined {
  for (const line of head.split('\n')) {
    const record = jsonRecord(line);
    const payload = record?.['payload'];
    if (record?.['type'] === 'session_meta' && typeof payload === 'object' && payload !== null) {
      const cwd = (payload as Record<string, unknown>)['cwd'];
      if (typeof cwd === 'string') return cwd;
    }
    const environment = /<cwd>([^<]+)<\/cwd>/.exec(line);
    if (environment) return (environment[1] as string).trim();
  }
  return undefined;
}

async function mtime(file: string): Promise<number> {
  try {
    return (await fsp.stat(file)).mtimeMs;
  } catch {
    return 0;
  }
}

async function exists(file: string): Promise<boolean> {
  return (await mtime(file)) > 0;
}
