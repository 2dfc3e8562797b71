import type { EntityMatch, GraphNode } from './protocol';

/**
 * The panel's text around the graph: node descriptions, the node list, search results and filter
 * boxes. Names and memory text come from memory content, so they only ever become textContent.
 */

/** A node's details, for the tooltip and the detail line. */
export function describe(node: GraphNode): string {
  if (node.kind === 'entity')
    return `${node.type} · ${node.label}\nmentioned by ${node.memoryCount} memor${node.memoryCount === 1 ? 'y' : 'ies'}`;
  if (node.kind === 'memory') return `${node.layer} · ${node.memoryKind} · ${node.status}\n${node.text}`;
  return node.text;
}

/** A text list of the nodes for screen readers (and proof that content stays text). */
export function fillNodeList(list: HTMLUListElement, nodes: GraphNode[]): void {
  const items = nodes.slice(0, 300).map((n) => {
    const li = document.createElement('li');
    li.textContent =
      n.kind === 'entity'
        ? `${n.type}: ${n.label}`
        : n.kind === 'memory'
          ? `${n.layer} memory: ${n.label}`
          : `${n.kind}: ${n.label}`;
    return li;
  });
  list.replaceChildren(...items);
}

/** Entities found by name, one button each; a click starts from that entity. */
export function fillResults(
  results: HTMLElement,
  entities: EntityMatch[],
  error: string | undefined,
  pick: (entity: EntityMatch) => void,
): void {
  if (error || entities.length === 0) {
    const note = document.createElement('span');
    note.textContent = error ? `Search failed: ${error}` : 'No entity by that name.';
    results.replaceChildren(note);
    return;
  }
  results.replaceChildren(
    ...entities.map((e) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('role', 'listitem');
      button.textContent = `${e.name} · ${e.type} · ${e.memoryCount}`;
      button.addEventListener('click', () => pick(e));
      return button;
    }),
  );
}

/** A filter box (@vscode-elements checkbox) named by its label. */
export function filterCheckbox(
  label: string,
  checked: boolean,
  onChange: (checked: boolean) => void,
): HTMLElement {
  const box = document.createElement('vscode-checkbox') as HTMLElement & { checked: boolean; label: string };
  box.label = label;
  box.checked = checked;
  box.dataset['filter'] = label;
  box.addEventListener('change', () => onChange(box.checked));
  return box;
}
