import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import { EngramError } from '../../engine/errors';
import { readSettings } from '../settings';

interface FileMemories {
  ids: string[];
}

/**
 * "Engram: 2 memories, 1 stale" above a file that memories mention (through the entity graph's
 * path entities). Counts are cached per file and dropped when memories or drift change; a file no
 * memory mentions gets no lens. `engram.editor.memoryHints` turns it off.
 */
export class MemoryCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly cache = new Map<string, Promise<FileMemories>>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly engine: EngineConnection,
    private readonly drift: DriftState,
  ) {
    const reset = () => {
      this.cache.clear();
      this.changed.fire();
    };
    this.subscriptions = [
      engine.onDidChangeMemories(reset),
      drift.onDidChange(reset),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('engram.editor') && reset()),
    ];
  }

  private memoriesOf(file: string): Promise<FileMemories> {
    let cached = this.cache.get(file);
    if (!cached) {
      cached = this.engine
        .call('related', { entity: file, hops: 1, limit: 100 })
        .then((r) => ({
          ids: r.memories
            .filter((m) => m.memory.status === 'active' && m.memory.layer !== 'codebase')
            .map((m) => m.memory.id),
        }))
        .catch((error: unknown) => {
          if (EngramError.is(error, 'NOT_FOUND')) return { ids: [] };
          throw error;
        });
      this.cache.set(file, cached);
    }
    return cached;
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    // Lenses never wait for the engine to start, and never start it.
    if (!readSettings().editorHints || document.uri.scheme !== 'file' || this.engine.state !== 'ready')
      return [];
    const file = vscode.workspace.asRelativePath(document.uri, false);
    try {
      const { ids } = await this.memoriesOf(file);
      if (ids.length === 0) return [];
      const stale = ids.filter((id) => this.drift.isStale(id)).length;
      const title = `$(database) Engram: ${ids.length} ${ids.length === 1 ? 'memory' : 'memories'}${stale ? `, ${stale} stale` : ''}`;
      return [
        new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
          title,
          command: 'engram.showFileContext',
          arguments: [document.uri],
          tooltip: 'Show what Engram knows about this file',
        }),
      ];
    } catch {
      return [];
    }
  }

  dispose(): void {
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
