import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import { EngramError } from '../../engine/index';
import { readSettings } from '../settings';

/** Memories listed in one hover; the rest are counted. */
const SHOWN = 3;
/** Characters of a memory's content shown in a hover line. */
const EXCERPT = 140;
/** Identifiers shorter than this are never looked up (`i`, `id`, `db` name nothing useful). */
const MIN_WORD = 3;
/** Identifier-like words: a symbol, a dotted name or a package, not punctuation or numbers. */
const WORD = /[A-Za-z_$@][\w$@./-]*[\w$]/;

export interface HoverMemory {
  id: string;
  kind: string;
  content: string;
}

/**
 * A hover on a symbol (or any identifier) that memories mention by name, through the entity graph:
 * "Engram: 2 memories mention `hashPassword`", their first lines and a link to open each. Derived
 * codebase memories are left out (they restate the code under the cursor). Answers are cached per
 * name and dropped when memories or drift change; `engram.editor.memoryHints` turns hovers off too.
 * A hover never starts or waits for the engine.
 */
export class MemoryHoverProvider implements vscode.HoverProvider, vscode.Disposable {
  private readonly cache = new Map<string, Promise<HoverMemory[]>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly engine: EngineConnection,
    private readonly drift: DriftState,
  ) {
    const reset = () => this.cache.clear();
    this.subscriptions = [engine.onDidChangeMemories(reset), drift.onDidChange(reset)];
  }

  /** The memories that mention `name` (cached). */
  memoriesNaming(name: string): Promise<HoverMemory[]> {
    let cached = this.cache.get(name);
    if (!cached) {
      cached = this.engine
        .call('related', { entity: name, hops: 1, limit: 50 })
        .then((r) =>
          r.memories
            .filter((m) => m.memory.status === 'active' && m.memory.layer !== 'codebase')
            .map((m) => ({ id: m.memory.id, kind: m.memory.kind, content: m.memory.content })),
        )
        .catch((error: unknown) => {
          if (EngramError.is(error, 'NOT_FOUND')) return [];
          throw error;
        });
      this.cache.set(name, cached);
    }
    return cached;
  }

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    if (!readSettings().editorHints || this.engine.state !== 'ready') return undefined;
    const range = document.getWordRangeAtPosition(position, WORD);
    if (!range) return undefined;
    const name = document.getText(range);
    if (name.length < MIN_WORD) return undefined;
    try {
      const memories = await this.memoriesNaming(name);
      if (memories.length === 0 || token.isCancellationRequested) return undefined;
      return new vscode.Hover(
        hoverText(name, memories, (id) => this.drift.isStale(id)),
        range,
      );
    } catch {
      return undefined;
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/**
 * The hover's Markdown. Memory content is untrusted: it goes in through `appendText` (Markdown
 * escaped) with `<` as an entity, HTML is off, and the only command a link may run is opening a memory.
 */
export function hoverText(
  name: string,
  memories: readonly HoverMemory[],
  isStale: (id: string) => boolean,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ['engram.openMemory'] };
  md.supportHtml = false;
  md.appendMarkdown(
    `$(database) **Engram**: ${memories.length} ${memories.length === 1 ? 'memory mentions' : 'memories mention'} `,
  );
  md.appendText(name);
  md.appendMarkdown('\n\n');
  for (const memory of memories.slice(0, SHOWN)) {
    const args = encodeURIComponent(JSON.stringify([memory.id]));
    md.appendMarkdown(
      `- [${memory.kind.replace(/[^a-z-]/g, '')}](command:engram.openMemory?${args} "Open this memory")`,
    );
    if (isStale(memory.id)) md.appendMarkdown(' $(warning) stale');
    md.appendMarkdown(': ');
    // appendText escapes Markdown but not `<`: an entity keeps a tag in the content from being one.
    md.appendText(excerpt(memory.content).replace(/</g, '&lt;'));
    md.appendMarkdown('\n');
  }
  if (memories.length > SHOWN) md.appendMarkdown(`\n…and ${memories.length - SHOWN} more\n`);
  return md;
}

function excerpt(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
}

/** The hover for every file-backed document, and the provider itself (it holds subscriptions). */
export function registerMemoryHover(engine: EngineConnection, drift: DriftState): vscode.Disposable[] {
  const provider = new MemoryHoverProvider(engine, drift);
  return [vscode.languages.registerHoverProvider({ scheme: 'file' }, provider), provider];
}
