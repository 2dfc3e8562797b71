import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import { memoriesAboutFile } from './fileMemories';
import { readSettings } from '../settings';

interface FileMemories {
  ids: string[];
}

/**
 * "Engram: 2 memories, 1 stale" above a file that memories mention (through the entity graph's
 * path entities); a click lists them (engram.showFileMemories). Counts are cached per file and dropped when memories or drift change; a file no
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
      cached = memoriesAboutFile(this.engine, file).then((memories) => ({ ids: memories.map((m) => m.id) }));
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
          // The memories it counts, to pick one and open it (not the agents' context block).
          command: 'engram.showFileMemories',
          arguments: [document.uri],
          tooltip: 'Show the memories that mention this file',
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
