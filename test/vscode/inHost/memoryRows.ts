import type { EngramExtensionApi } from '../../../extension/extension';
import type { MemoryTreeNode } from '../../../extension/views/memoryTree';

export type GroupNode = Extract<MemoryTreeNode, { type: 'group' }>;

/** The Memories view's group rows, as the view asks for them. */
export async function groupRows(api: EngramExtensionApi): Promise<GroupNode[]> {
  return (await api.memories.getChildren()).filter((n): n is GroupNode => n.type === 'group');
}

/** A memory's row in the Memories view and the group row it is under, whatever the grouping. */
export async function memoryRowOf(
  api: EngramExtensionApi,
  id: string,
): Promise<{ group: GroupNode; row: MemoryTreeNode } | undefined> {
  for (const group of await groupRows(api)) {
    const row = (await api.memories.getChildren(group)).find(
      (r) => r.type === 'memory' && r.memory.id === id,
    );
    if (row) return { group, row };
  }
  return undefined;
}
