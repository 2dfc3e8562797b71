import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import { memoryDocument } from './memoryText';

/**
 * Read-only documents: a memory (`engram-memory:/<id>/<title>.md`) and generated text
 * (`engram-view:`). The title is only the tab's name; the first path segment is the memory.
 */
export const MEMORY_SCHEME = 'engram-memory';
export const VIEW_SCHEME = 'engram-view';
/** A memory's words as an editable file: saving writes a new version (memoryEditFileSystem.ts). */
export const EDIT_SCHEME = 'engram-edit';

/** A file name from a memory's first line: what a tab shows instead of the id. */
function fileTitle(title: string | undefined): string {
  // Only what is safe in a path segment and a tab: letters, digits, spaces and plain punctuation.
  const name = (title ?? '')
    .replace(/[^\p{L}\p{N} ,.'()_-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return name.slice(0, 60).trim() || 'memory';
}

export function memoryUri(id: string, title?: string, scheme = MEMORY_SCHEME): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${id}/${fileTitle(title)}.md` });
}

/** The memory an `engram-memory:` or `engram-edit:` URI shows (also the older `/<id>.md` form). */
export function memoryIdOfUri(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== MEMORY_SCHEME && uri.scheme !== EDIT_SCHEME) return undefined;
  const first = uri.path.replace(/^\//, '').split('/')[0] ?? '';
  return first.replace(/\.md$/, '') || undefined;
}

/**
 * Serves memories as Markdown files of a read-only file system: VS Code shows them read-only and
 * refuses writes: this document is the memory with its history; its words are edited in an
 * `engram-edit:` document (Edit Memory), whose save makes a new version. Open memories follow changes (pin, invalidate, drift fix).
 */
export class MemoryFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private readonly rendered = new Map<string, Uint8Array>();

  constructor(private readonly engine: EngineConnection) {
    this.subscription = engine.onDidChangeMemories(() => {
      const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === MEMORY_SCHEME);
      this.rendered.clear();
      if (open.length > 0)
        this.changed.fire(open.map((d) => ({ type: vscode.FileChangeType.Changed, uri: d.uri })));
    });
  }

  private async render(uri: vscode.Uri): Promise<Uint8Array> {
    const cached = this.rendered.get(uri.path);
    if (cached) return cached;
    const id = memoryIdOfUri(uri) ?? '';
    let text: string;
    try {
      const [{ memory }, history, lifecycle] = await Promise.all([
        this.engine.call('get', { id }),
        this.engine.call('history', { id }),
        this.engine.call('explain', { id }),
      ]);
      text = memoryDocument(memory, history.versions, history.annotations, Date.now(), lifecycle);
    } catch (error) {
      throw vscode.FileSystemError.FileNotFound(
        `${uri.toString()}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const bytes = Buffer.from(text, 'utf8');
    this.rendered.set(uri.path, bytes);
    return bytes;
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const bytes = await this.render(uri);
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime: Date.now(),
      size: bytes.byteLength,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.render(uri);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('memories are listed in the Memories view');
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('memories are read-only');
  }
  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('this view is read-only: use Engram: Edit Memory');
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions('use Engram: Forget Memory');
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions('memories are read-only');
  }

  dispose(): void {
    this.changed.dispose();
    this.subscription.dispose();
  }
}

/** Generated read-only text (context blocks, drift proposals), keyed by the URI path. */
export class GeneratedDocumentProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  show(path: string, text: string): vscode.Uri {
    this.texts.set(path, text);
    return vscode.Uri.from({ scheme: VIEW_SCHEME, path });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }
}
