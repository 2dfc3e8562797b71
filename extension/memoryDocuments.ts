import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import { memoryDocument } from './memoryPresentation';

/** Read-only documents: a memory (`engram-memory:/<id>.md`) and generated text (`engram-view:`). */
export const MEMORY_SCHEME = 'engram-memory';
export const VIEW_SCHEME = 'engram-view';

export function memoryUri(id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/${id}.md` });
}

/**
 * Serves memories as Markdown files of a read-only file system: VS Code shows them read-only and
 * refuses writes, which is what a memory should be (edits make versions through the engine, not
 * through a buffer). Open memories follow changes (pin, invalidate, drift fix).
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
    const id = uri.path.replace(/^\//, '').replace(/\.md$/, '');
    let text: string;
    try {
      const [{ memory }, history] = await Promise.all([
        this.engine.call('get', { id }),
        this.engine.call('history', { id }),
      ]);
      text = memoryDocument(memory, history.versions, history.annotations);
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
    throw vscode.FileSystemError.NoPermissions('memories are read-only: edit them through Engram');
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
