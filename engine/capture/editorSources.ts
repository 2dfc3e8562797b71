import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaptureAgent } from './events';
import { isRecord, jsonRecord, text } from './events';
import { list, readHeadBytes } from './storeFiles';

/** Where the editor-hosted agents keep their sessions (see agentStores). */
export interface EditorStores {
  /** VS Code's user data folders (`.../Code/User`, Insiders, VSCodium). */
  vscodeUser: string[];
  /** Cline's data folders (its VS Code global storage, and `~/.cline/data` of its CLI). */
  clineData: string[];
  /** Roo Code's VS Code global storage folders. */
  rooData: string[];
}

/** The folders for this platform; `APPDATA`, `XDG_CONFIG_HOME` and Cline's `CLINE_DIR` move them. */
export function editorStores(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): EditorStores {
  const config =
    platform === 'win32'
      ? env['APPDATA'] || path.join(home, 'AppData', 'Roaming')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : env['XDG_CONFIG_HOME'] || path.join(home, '.config');
  const vscodeUser = ['Code', 'Code - Insiders', 'VSCodium'].map((app) => path.join(config, app, 'User'));
  const storage = (id: string) => vscodeUser.map((user) => path.join(user, 'globalStorage', id));
  const clineHome = env['CLINE_DATA_DIR'] || path.join(env['CLINE_DIR'] || path.join(home, '.cline'), 'data');
  return {
    vscodeUser,
    clineData: [...storage('saoudrizwan.claude-dev'), clineHome],
    rooData: storage('rooveterinaryinc.roo-cline'),
  };
}

export interface EditorSource {
  agent: CaptureAgent;
  path: string;
}

/**
 * The session files of this workspace kept by editor extensions. VS Code names the folder of a
 * workspace's storage by a hash, and writes the folder it is for in its `workspace.json`
 * (`{"folder": "file:///..."}`): only the chat sessions of workspaces at `root` or inside it are
 * taken (a multi-root `.code-workspace` is matched by where its file lies). A Cline task names its
 * directory in `state/taskHistory.json` (`cwdOnTaskInitialization`); a Roo Code task (and a Cline
 * task not listed there) only in the environment details of its first request, in
 * `api_conversation_history.json`: its head is read to learn it, once per process.
 */
export async function editorSources(
  stores: EditorStores,
  wanted: (agent: CaptureAgent) => boolean,
  inside: (dir: string) => boolean,
): Promise<EditorSource[]> {
  const found: EditorSource[] = [];
  if (wanted('copilot')) {
    for (const user of stores.vscodeUser) {
      const storage = path.join(user, 'workspaceStorage');
      for (const id of await list(storage)) {
        const folder = await workspaceFolder(path.join(storage, id, 'workspace.json'));
        if (folder === undefined || !inside(folder)) continue;
        const chats = path.join(storage, id, 'chatSessions');
        for (const file of await list(chats))
          if (/\.jsonl?$/.test(file)) found.push({ agent: 'copilot', path: path.join(chats, file) });
      }
    }
  }
  const tasks = async (agent: CaptureAgent, dirs: string[]) => {
    for (const dir of dirs) {
      const history = await taskDirectories(path.join(dir, 'state', 'taskHistory.json'));
      for (const id of await list(path.join(dir, 'tasks'))) {
        const task = path.join(dir, 'tasks', id);
        const cwd = history.get(id) ?? (await taskCwd(path.join(task, 'api_conversation_history.json')));
        if (cwd !== undefined && inside(cwd))
          found.push({ agent, path: path.join(task, 'ui_messages.json') });
      }
    }
  };
  if (wanted('cline')) await tasks('cline', stores.clineData);
  if (wanted('roo-code')) await tasks('roo-code', stores.rooData);
  return found;
}

/** Never changes for a folder: read once per process. */
const folders = new Map<string, string | null>();

async function workspaceFolder(file: string): Promise<string | undefined> {
  let folder = folders.get(file);
  if (folder === undefined) {
    const value = jsonRecord(await fsp.readFile(file, 'utf8').catch(() => ''));
    const uri = text(value?.['folder']) ?? text(value?.['workspace']);
    folder = uri?.startsWith('file:') ? filePath(uri) : null;
    folders.set(file, folder);
  }
  return folder ?? undefined;
}

function filePath(uri: string): string | null {
  try {
    return fileURLToPath(uri);
  } catch {
    return null; // not a path on this system (another platform's drive letter, a bad escape)
  }
}

/** `HistoryItem[]`: the directory each task started in, by task id. */
async function taskDirectories(file: string): Promise<Map<string, string>> {
  const byId = new Map<string, string>();
  let items: unknown;
  try {
    items = JSON.parse(await fsp.readFile(file, 'utf8'));
  } catch {
    return byId;
  }
  for (const item of Array.isArray(items) ? items.filter(isRecord) : []) {
    const id = text(item['id']);
    const cwd = text(item['cwdOnTaskInitialization']) ?? text(item['workspace']);
    if (id && cwd) byId.set(id, cwd);
  }
  return byId;
}

const taskDirs = new Map<string, string>();
/** Cline writes `# Current Working Directory (...) Files`, Roo Code `# Current Workspace Directory`. */
const ENVIRONMENT_CWD = /# Current (?:Working|Workspace) Directory \((.+?)\) Files/;

async function taskCwd(file: string): Promise<string | undefined> {
  const known = taskDirs.get(file);
  if (known !== undefined) return known;
  const head = await readHeadBytes(file).catch(() => '');
  // Not written yet: ask again next time.
  const match = ENVIRONMENT_CWD.exec(head)?.[1];
  if (match === undefined) return undefined;
  // Backslashes (a Windows path) are escaped in the JSON text.
  const cwd = match.replace(/\\\\/g, '\\');
  taskDirs.set(file, cwd);
  return cwd;
}
