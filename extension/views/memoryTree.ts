import * as vscode from 'vscode';
import { LAYERS } from '../../engine/memory/types';
import type { Layer, Memory } from '../../engine/memory/types';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import {
  LAYER_DESCRIPTIONS,
  LAYER_ICONS,
  kindIcon,
  plural,
  memoryDescription,
  memoryTitle,
  memoryTooltip,
} from '../memoryPresentation';
import { staleLabel } from '../memoryText';

/** Rows per layer: past this the tree says how many more and points at the filter. */
const PAGE = 200;

export type MemoryTreeNode =
  | { type: 'layer'; layer: Layer; count: number }
  | { type: 'memory'; memory: Memory }
  | { type: 'more'; layer: Layer; hidden: number }
  | { type: 'message'; text: string };

/** `viewItem` values the context menus in package.json match on. */
export function memoryContextValue(memory: Memory): string {
  // `sourced`: made from a selection, so Go to Source has a file to open.
  const sourced = memory.source?.file ? 'sourced.' : '';
  return `memory.${sourced}${memory.status}.${memory.pinned ? 'pinned' : 'unpinned'}`;
}

/**
 * The Memories view: layers as roots with their counts, memories under them (newest first), or,
 * with a filter, the memories recall finds for it grouped by layer.
 */
export class MemoryTreeProvider implements vscode.TreeDataProvider<MemoryTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MemoryTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private filterText: string | undefined;
  private filtered: Map<Layer, Memory[]> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly engine: EngineConnection,
    private readonly drift: DriftState,
  ) {
    this.subscriptions.push(
      engine.onDidChangeMemories(() => this.refresh()),
      drift.onDidChange(() => this.refresh()),
    );
  }

  get filter(): string | undefined {
    return this.filterText;
  }

  setFilter(text: string | undefined): void {
    this.filterText = text?.trim() || undefined;
    void vscode.commands.executeCommand(
      'setContext',
      'engram.memoryFilterActive',
      this.filterText !== undefined,
    );
    this.refresh();
  }

  refresh(): void {
    this.filtered = undefined;
    this.changed.fire(undefined);
  }

  getTreeItem(node: MemoryTreeNode): vscode.TreeItem {
    switch (node.type) {
      case 'layer': {
        const item = new vscode.TreeItem(node.layer, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `layer:${node.layer}`;
        item.description = plural(node.count, 'memory', 'memories');
        item.tooltip = LAYER_DESCRIPTIONS[node.layer];
        item.iconPath = new vscode.ThemeIcon(LAYER_ICONS[node.layer] ?? 'folder');
        item.contextValue = 'layer';
        if (this.filterText !== undefined && node.count > 0)
          item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
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
      if (!node) return await this.roots();
      if (node.type !== 'layer') return [];
      if (this.filterText !== undefined)
        return ((await this.filteredByLayer()).get(node.layer) ?? []).map((memory) => ({
          type: 'memory',
          memory,
        }));
      const page = await this.engine.call('list', { layer: node.layer, limit: PAGE });
      const rows: MemoryTreeNode[] = page.items.map((memory) => ({ type: 'memory', memory }));
      if (page.total > page.items.length)
        rows.push({ type: 'more', layer: node.layer, hidden: page.total - page.items.length });
      return rows;
    } catch (error) {
      return [{ type: 'message', text: `Engram: ${error instanceof Error ? error.message : String(error)}` }];
    }
  }

  private async roots(): Promise<MemoryTreeNode[]> {
    if (this.filterText !== undefined) {
      const grouped = await this.filteredByLayer();
      if (grouped.size === 0) return [{ type: 'message', text: `No memory matches "${this.filterText}"` }];
      return LAYERS.filter((l) => grouped.has(l)).map((layer) => ({
        type: 'layer',
        layer,
        count: grouped.get(layer)?.length ?? 0,
      }));
    }
    const stats = await this.engine.call('stats', {});
    // No memory at all: no rows, so the view shows its welcome (package.json viewsWelcome).
    if (stats.memories === 0) return [];
    return LAYERS.map((layer) => ({ type: 'layer', layer, count: stats.byLayer[layer] ?? 0 }));
  }

  private async filteredByLayer(): Promise<Map<Layer, Memory[]>> {
    if (this.filtered) return this.filtered;
    const result = await this.engine.call('recall', { query: this.filterText ?? '', k: 100 });
    const grouped = new Map<Layer, Memory[]>();
    for (const hit of result.hits) {
      const list = grouped.get(hit.memory.layer) ?? [];
      list.push(hit.memory);
      grouped.set(hit.memory.layer, list);
    }
    this.filtered = grouped;
    return grouped;
  }

  getParent(node: MemoryTreeNode): MemoryTreeNode | undefined {
    if (node.type === 'memory') return { type: 'layer', layer: node.memory.layer, count: 0 };
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
