import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import { EDIT_SCHEME, memoryIdOfUri } from './memoryDocuments';

/**
 * A memory's words as a file (`engram-edit:/<id>/<title>.md`): Edit Memory opens it, and saving
 * it is `edit {content}`, a new version of the memory (the old one stays in its history). The
 * file's mtime is the version's recordedAt, so a save over a version written meanwhile by someone
 * else (an agent, the CLI) is refused by VS Code as a conflict instead of silently replacing it.
 */
export class MemoryEditFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly engine: EngineConnection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = engine.onDidChangeMemories(() => {
      const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === EDIT_SCHEME);
      if (open.length > 0)
        this.changed.fire(open.map((d) => ({ type: vscode.FileChangeType.Changed, uri: d.uri })));
    });
  }

  private async current(uri: vscode.Uri): Promise<{ content: string; recordedAt: number }> {
    try {
      const { memory } = await this.engine.call('get', { id: memoryIdOfUri(uri) ?? '', readOnly: true });
      return memory;
    } catch (error) {
      throw vscode.FileSystemError.FileNotFound(
        `${uri.toString()}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    // `/<id>` is the folder of `/<id>/<title>.md`: VS Code stats a file's parent before writing it.
    if (!uri.path.replace(/^\//, '').includes('/'))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const memory = await this.current(uri);
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime: memory.recordedAt,
      size: Buffer.byteLength(memory.content, 'utf8'),
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return Buffer.from((await this.current(uri)).content, 'utf8');
  }

  /** Saving: one new version with the buffer's text; an empty buffer is refused, nothing changes. */
  async writeFile(uri: vscode.Uri, bytes: Uint8Array): Promise<void> {
    const id = memoryIdOfUri(uri);
    const content = Buffer.from(bytes).toString('utf8').trim();
    if (!id) throw vscode.FileSystemError.FileNotFound(uri);
    if (content === '') {
      this.log.warn(`edit ${id}: not saved, the text is empty`);
      throw vscode.FileSystemError.NoPermissions(
        'a memory cannot be empty: type its new text, or use Engram: Forget Memory',
      );
    }
    try {
      const memory = await this.engine.call('edit', { id, changes: { content } });
      this.log.info(`edit ${memory.id}: saved as version ${memory.version}`);
    } catch (error) {
      // VS Code shows the save's failure; the log keeps which memory and why.
      this.log.error(`edit ${id}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('memories are listed in the Memories view');
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('use Engram: Remember Note to add a memory');
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions('use Engram: Forget Memory');
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions('a memory is named by its first line: edit that');
  }

  dispose(): void {
    this.changed.dispose();
    this.subscription.dispose();
  }
}
