import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { Status } from '../../engine/index';
import { memoryDescription, memoryTitle } from '../memoryPresentation';
import { memoryIdOfUri } from '../memoryDocuments';

/**
 * The memory a command acts on: a tree row, a Drift view row, an id (from tests, chat buttons,
 * other commands), a memory document (its editor title bar passes the URI), or, from the palette, one the user picks among memories of the given statuses
 * (only the pinned, or unpinned, ones with `pinned`: Unpin offers nothing else).
 */
export async function memoryIdFrom(
  arg: unknown,
  engine: EngineConnection,
  prompt: string,
  statuses: readonly Status[] = ['active'],
  only: { pinned?: boolean } = {},
): Promise<string | undefined> {
  if (typeof arg === 'string' && arg.trim() !== '') return arg.trim();
  if (arg instanceof vscode.Uri) return memoryIdOfUri(arg);
  if (typeof arg === 'object' && arg !== null) {
    const node = arg as { memory?: { id?: unknown }; finding?: { memoryId?: unknown } };
    if (typeof node.memory?.id === 'string') return node.memory.id;
    if (typeof node.finding?.memoryId === 'string') return node.finding.memoryId;
  }
  const pages = await Promise.all(
    statuses.map((status) => engine.call('list', { status, limit: 200, ...only })),
  );
  const items = pages
    .flatMap((p) => p.items)
    .map((m) => ({ label: memoryTitle(m), description: memoryDescription(m), detail: m.content, id: m.id }));
  if (items.length === 0) {
    const pin = only.pinned === undefined ? '' : only.pinned ? 'pinned ' : 'unpinned ';
    const which = `${pin}${statuses.join(' or ')}`;
    void vscode.window.showInformationMessage(`Engram: no ${which} memories.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: prompt,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.id;
}
