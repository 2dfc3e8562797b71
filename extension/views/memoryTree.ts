import * as vscode from 'vscode';
import type { Memory } from '../../engine/index';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import {
  LAYER_DESCRIPTIONS,
  kindIcon,
  memoryDescription,
  memoryTitle,
  memoryTooltip,
  plural,
} from '../memoryPresentation';
import { filterMessage, groupKeyOf, groupMemories } from '../memoryGroups';
import type { GroupBy, MemoryGroup } from '../memoryGroups';
import { groupIcon } from './groupIcons';
import { staleLabel } from '../memoryText';
import { readSettings } from '../settings';

/** Rows per group: past this the tree says how many more and points at the filter. */
const PAGE = 200;
/** Memories the view reads at most (newest first); older ones are reached through the filter. */
const LOAD_LIMIT = 5000;
/** How many memories a filter shows at most (recall's best first). */
const FILTER_LIMIT = 100;

export type MemoryTreeNode =
  | { type: 'group'; by: GroupBy; key: string; label: string; count: number }
  | { type: 'memory'; memory: Memory }
  | { type: 'more'; hidden: number }
  | { type: 'message'; text: string };

/** `viewItem` values the context menus in package.json match on. */
export function memoryContextValue(memory: Memory): string {
  // `sourced`: made from a selection, so Go to Source has a file to open.
  const sourced = memory.source?.file ? 'sourced.' : '';
  return `memory.${sourced}${memory.status}.${memory.pinned ? 'pinned' : 'unpinned'}`;
}

/** What the view shows now: its groups, and how many memories it did not read. */
interface Loaded {
  by: GroupBy;
  groups: MemoryGroup[];
  /** Memories not read (past LOAD_LIMIT); reached through the filter. */
  unread: number;
}

/**
 * The Memories view: group rows (by kind, file, day or layer, per `engram.memories.groupBy`) with
 * their counts, memories under them; with a filter, the memories recall finds for it, grouped the
 * same way, and the view's message says the filter is on and how much it shows.
 */
export class MemoryTreeProvider implements vscode.TreeDataProvider<MemoryTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MemoryTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private filterText: string | undefined;
  private loaded: Promise<Loaded> | undefined;
  private loadedBy: GroupBy | undefined;
  private treeView: vscode.TreeView<MemoryTreeNode> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly engine: EngineConnection,
    private readonly drift: DriftState,
  ) {
    this.subscriptions.push(
      engine.onDidChangeMemories(() => this.refresh()),
      drift.onDidChange(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration('engram.memories.groupBy') && this.refresh(),
      ),
    );
  }

  /** Creates the view this provider fills; the provider sets its message while a filter is on. */
  createView(): vscode.TreeView<MemoryTreeNode> {
    this.treeView = vscode.window.createTreeView('engram.memories', {
      treeDataProvider: this,
      showCollapseAll: true,
    });
    return this.treeView;
  }

  /** The view's message: `Filtered: "<query>" (N of M)` while a filter is on, else undefined. */
  get message(): string | undefined {
    return this.treeView?.message;
  }

  get filter(): string | undefined {
    return this.filterText;
  }

  get groupBy(): GroupBy {
    return readSettings().memoriesGroupBy;
  }

  setFilter(text: string | undefined): void {
    this.filterText = text?.trim() || undefined;
    void vscode.commands.executeCommand(
      'setContext',
      'engram.memoryFilterActive',
      this.filterText !== undefined,
    );
    if (this.treeView && this.filterText === undefined) this.treeView.message = undefined;
    this.refresh();
  }

  refresh(): void {
    this.loaded = undefined;
    this.changed.fire(undefined);
  }

  getTreeItem(node: MemoryTreeNode): vscode.TreeItem {
    switch (node.type) {
      case 'group': {
        const filtering = this.filterText !== undefined;
        const item = new vscode.TreeItem(
          node.label,
          filtering ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        // Its own id while filtering, so a filter opens every group whatever was collapsed before.
        item.id = `${filtering ? 'filter:' : ''}group:${node.by}:${node.key}`;
        item.description = plural(node.count, 'memory', 'memories');
        if (node.by === 'layer') item.tooltip = LAYER_DESCRIPTIONS[node.key];
        item.iconPath = new vscode.ThemeIcon(groupIcon(node.by, node.key));
        item.contextValue = 'group';
        return item;
      }
      case 'memory': {
        const m = node.memory;
        const item = new vscode.TreeItem(memoryTitle(m), vscode.TreeItemCollapsibleState.None);
        item.id = `memory:${m.id}`;
        const stale = this.drift.staleReason(m.id);
        item.description = stale
          ? `${staleLabel(this.drift.findingFor(m.id)?.evidence.commit)} · ${memoryDescription(m)}`
          : memoryDescription(m);
        item.iconPath = stale
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
          : kindIcon(m);
        item.tooltip = memoryTooltip(m);
        if (stale) item.tooltip.appendMarkdown('\n\n**Drift:** ').appendText(stale);
        item.contextValue = memoryContextValue(m);
        item.command = { command: 'engram.openMemory', title: 'Open Memory', arguments: [node] };
        return item;
      }
      case 'more': {
        const item = new vscode.TreeItem(`${node.hidden} more: use Filter Memories to find them`);
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: 'engram.filterMemories', title: 'Filter Memories' };
        return item;
      }
      case 'message':
        return new vscode.TreeItem(node.text);
    }
  }

  async getChildren(node?: MemoryTreeNode): Promise<MemoryTreeNode[]> {
    try {
      const loaded = await this.load();
      if (!node) return this.roots(loaded);
      if (node.type !== 'group') return [];
      const group = loaded.groups.find((g) => g.key === node.key);
      const memories = group?.memories ?? [];
      const rows: MemoryTreeNode[] = memories.slice(0, PAGE).map((memory) => ({ type: 'memory', memory }));
      if (memories.length > PAGE) rows.push({ type: 'more', hidden: memories.length - PAGE });
      return rows;
    } catch (error) {
      return [{ type: 'message', text: `Engram: ${error instanceof Error ? error.message : String(error)}` }];
    }
  }

  private roots(loaded: Loaded): MemoryTreeNode[] {
    if (this.filterText !== undefined && loaded.groups.length === 0)
      return [{ type: 'message', text: `No memory matches "${this.filterText}"` }];
    // No memory at all: no rows, so the view shows its welcome (package.json viewsWelcome).
    const rows: MemoryTreeNode[] = loaded.groups.map((g) => this.groupNode(loaded.by, g));
    if (loaded.unread > 0) rows.push({ type: 'more', hidden: loaded.unread });
    return rows;
  }

  private groupNode(by: GroupBy, group: MemoryGroup): MemoryTreeNode {
    return { type: 'group', by, key: group.key, label: group.label, count: group.memories.length };
  }

  /** Reads what the view shows once per change (every group row and its children share it). */
  private load(): Promise<Loaded> {
    // A grouping changed before its configuration event arrived: what was read is grouped wrongly.
    if (this.loadedBy !== this.groupBy) this.loaded = undefined;
    this.loadedBy = this.groupBy;
    this.loaded ??= this.read().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  private async read(): Promise<Loaded> {
    const by = this.groupBy;
    const query = this.filterText;
    if (query === undefined) {
      const page = await this.engine.call('list', { limit: LOAD_LIMIT });
      return {
        by,
        groups: groupMemories(page.items, by, Date.now()),
        unread: page.total - page.items.length,
      };
    }
    const [result, stats] = await Promise.all([
      this.engine.call('recall', { query, k: FILTER_LIMIT }),
      this.engine.call('stats', {}),
    ]);
    const memories = result.hits.map((hit) => hit.memory);
    // The filter may have changed while recall ran: only the current one's count is shown.
    if (this.treeView && this.filterText === query)
      this.treeView.message = filterMessage(query, memories.length, stats.memories);
    return { by, groups: groupMemories(memories, by, Date.now()), unread: 0 };
  }

  getParent(node: MemoryTreeNode): MemoryTreeNode | undefined {
    if (node.type !== 'memory') return undefined;
    const by = this.groupBy;
    const key = groupKeyOf(node.memory, by);
    return { type: 'group', by, key, label: key, count: 0 };
  }

  dispose(): void {
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
