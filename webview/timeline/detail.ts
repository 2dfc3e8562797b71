import { driftLabel } from './draw';
import type { TimelineDriftEvent, TimelineMemory, TimelineVersionMark, WebviewToHost } from './protocol';
import { isRelativePath } from './protocol';
import { summaryLine } from '../shared/text';

/**
 * The panes below the chart. Memory content is untrusted: everything here is built with
 * createElement and textContent, never innerHTML, so markup or Markdown links in a memory stay text.
 */

export function describeMemory(m: TimelineMemory): string {
  const until = m.validTo === null ? 'now' : new Date(m.validTo).toLocaleString();
  const agent = m.agent ? ` · ${m.agent}` : '';
  return `${m.layer} · ${m.kind} · ${m.status} · v${m.version}${agent}\nvalid ${new Date(
    m.validFrom,
  ).toLocaleString()} → ${until} · first recorded ${new Date(m.createdAt).toLocaleString()}\n${summaryLine(m.content, 300)}`;
}

function button(text: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'link';
  b.textContent = text;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

function line(text: string, className?: string): HTMLDivElement {
  const div = document.createElement('div');
  if (className) div.className = className;
  div.textContent = text;
  return div;
}

/** Shows a memory: its facts, its text, versions, drift findings with the files and symbols they name. */
export function renderDetail(
  pane: HTMLElement,
  m: TimelineMemory | undefined,
  versions: readonly TimelineVersionMark[],
  drift: readonly TimelineDriftEvent[],
  post: (message: WebviewToHost) => void,
): void {
  pane.replaceChildren();
  if (!m) {
    pane.append(
      line(
        'Click a bar to select a memory and open it beside. Wheel zooms, drag pans, shift-drag selects a range.',
        'muted',
      ),
    );
    return;
  }
  const until = m.validTo === null ? 'now' : new Date(m.validTo).toLocaleString();
  pane.append(
    line(`${m.layer} · ${m.kind} · ${m.status} · v${m.version}${m.agent ? ` · ${m.agent}` : ''}`, 'muted'),
    line(
      `valid ${new Date(m.validFrom).toLocaleString()} → ${until} · first recorded ${new Date(m.createdAt).toLocaleString()}`,
      'muted',
    ),
    line(m.content, 'content'),
  );
  if (m.tags.length) pane.append(line(`tags: ${m.tags.join(', ')}`, 'muted'));
  if (versions.length)
    pane.append(
      line(
        `versions: ${versions.map((v) => `v${v.version} ${v.change} ${new Date(v.recordedAt).toLocaleString()}`).join(' · ')}`,
        'muted',
      ),
    );
  const refs = document.createElement('div');
  refs.className = 'refs';
  refs.append(
    button('Open memory', 'Open the whole memory', () =>
      post({ type: 'timeline/memory/open', memoryId: m.id }),
    ),
  );
  if (m.sourceFile && isRelativePath(m.sourceFile)) {
    const file = m.sourceFile;
    refs.append(
      button(file, 'Open the file this memory was taken from', () =>
        post({ type: 'timeline/file/open', path: file }),
      ),
    );
  }
  pane.append(refs);
  for (const d of drift) {
    const row = document.createElement('div');
    row.append(document.createTextNode(`${driftLabel(d).replace(/\n/g, ' · ')} `));
    const open = openClaim(d, post);
    if (open) row.append(open);
    pane.append(row);
  }
}

/** A button that opens what a drift claim names: a file for path claims, a symbol for symbol claims. */
function openClaim(
  d: TimelineDriftEvent,
  post: (message: WebviewToHost) => void,
): HTMLButtonElement | undefined {
  if (d.claimKind === 'path' && isRelativePath(d.subject))
    return button(`open ${d.subject}`, 'Open the file in the editor', () =>
      post({ type: 'timeline/file/open', path: d.subject }),
    );
  if (d.claimKind === 'symbol') {
    const name = d.subject;
    const file = d.file;
    return button(`open ${name}`, 'Find the symbol in the workspace', () =>
      file && isRelativePath(file)
        ? post({ type: 'timeline/file/open', path: file })
        : post({ type: 'timeline/symbol/open', name }),
    );
  }
  return undefined;
}

/** The brushed range: how many memories began in it, and the first of them as a clickable list. */
export function renderBrush(
  title: HTMLElement,
  list: HTMLElement,
  from: number,
  to: number,
  selected: readonly TimelineMemory[],
  onPick: (m: TimelineMemory) => void,
): void {
  const lo = new Date(Math.min(from, to)).toLocaleString();
  const hi = new Date(Math.max(from, to)).toLocaleString();
  title.textContent = `${selected.length} memories began between ${lo} and ${hi}`;
  const shown = selected.slice(0, 200);
  list.replaceChildren(
    ...shown.map((m) => {
      const li = document.createElement('li');
      li.append(button(summaryLine(m.content, 140), `${m.layer} · ${m.kind} · ${m.status}`, () => onPick(m)));
      return li;
    }),
  );
  if (selected.length > shown.length)
    list.append(line(`…and ${selected.length - shown.length} more`, 'muted'));
}
