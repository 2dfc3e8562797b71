import { summaryLine } from '../shared/text';
import type { EntityMatch, GraphData, GraphNode } from './protocol';
import type { UiState } from './viewState';

/**
 * The panel's text around the graph: node descriptions and click hints, the status line, the node
 * list, search results and filter boxes. Names and memory text come from memory content, so they only ever become textContent.
 */

/** A node's details, for the tooltip and the detail line. */
export function describe(node: GraphNode): string {
  if (node.kind === 'entity')
    return `${node.type} · ${node.label}\nmentioned by ${node.memoryCount} memor${node.memoryCount === 1 ? 'y' : 'ies'}`;
  if (node.kind === 'memory') return `${node.layer} · ${node.memoryKind} · ${node.status}\n${node.text}`;
  return node.text;
}

/** What a click and a double-click on the node do, for its tooltip. */
export function clickHint(node: GraphNode): string {
  switch (node.kind) {
    case 'memory':
      return 'click: open · double-click: explore from here';
    case 'session':
      return 'click: open its transcript';
    case 'commit':
      return 'a commit that carries the session’s edits';
    case 'entity':
      return `click: ${node.type === 'file' || node.type === 'symbol' ? 'open in the editor' : 'explore'} · double-click: explore from here`;
  }
}

/** The status line: what is in view, from where, and how many nodes the find box matches. */
export function statusText(data: GraphData, ui: UiState, matches: number): string {
  const start = ui.seeds
    ? `from ${ui.seedLabel || 'the start'}, ${ui.hops} hop${ui.hops > 1 ? 's' : ''}`
    : 'overview';
  const count = (kind: GraphNode['kind']) => data.nodes.filter((n) => n.kind === kind).length;
  const entities = count('entity');
  const capture = ui.sessions ? `, ${count('session')} sessions, ${count('commit')} commits` : '';
  const cut = data.truncated ? ` (limited to ${data.limit} nodes)` : '';
  const finding = ui.find.trim() ? `, ${matches} match “${summaryLine(ui.find, 40)}”` : '';
  return data.nodes.length === 0
    ? ui.seeds
      ? `Nothing connected ${start}.`
      : 'No entities yet: remember something that names files, symbols, tools or people.'
    : `${entities} entities, ${count('memory')} memories${capture}, ${data.edges.length} links · ${start}${cut}${finding}`;
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
