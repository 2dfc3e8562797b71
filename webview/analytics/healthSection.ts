import type { LifecycleHealth, LifecycleRun } from './protocol';
import { retentionChart } from './retentionChart';

/** What a new user sees: the section is empty until memories exist, and this says what will come. */
export const EMPTY_TEXT =
  'Once memories are written and recalled, this section shows how well they are ' +
  'retained as they age, what the lifecycle archived, promoted and merged, how much of the memory ' +
  'is ever recalled, and which restatements are waiting to be merged.';

/** True when there is nothing to show yet: no memory, no archive, no run. */
export function isEmpty(h: LifecycleHealth): boolean {
  return (
    h.quality.active === 0 && h.retention.memories === 0 && h.archived.total === 0 && h.runs.length === 0
  );
}

/** Fills `root` with the Lifecycle/Health section (every value set as text, never as markup). */
export function renderHealth(root: HTMLElement, h: LifecycleHealth): void {
  root.replaceChildren();
  if (isEmpty(h)) {
    root.append(paragraph(EMPTY_TEXT, 'empty muted'));
    return;
  }
  const recent = `last ${h.recentDays} days`;
  const tiles = element('dl', 'tiles');
  tiles.setAttribute('aria-label', 'Lifecycle counts');
  tiles.append(
    tile('Archived', String(h.archived.total), `${h.archived.recent} in the ${recent}`),
    tile('Promoted', String(h.promoted.total), `${h.promoted.recent} in the ${recent}`),
    tile(
      'Storage quality',
      h.quality.share === null ? '–' : `${Math.round(h.quality.share * 100)}%`,
      `${h.quality.recalled} of ${h.quality.active} active memories ever recalled`,
    ),
    tile('Duplicates pending', ...duplicatesText(h)),
  );
  root.append(tiles, heading('Retention curve'));
  if (h.retention.memories === 0)
    root.append(paragraph('No working or episodic memories: nothing is fading.', 'muted'));
  else
    root.append(
      retentionChart(h.retention.bins, h.retention.archiveThreshold),
      paragraph(
        `${h.retention.memories} fading memories (working and episodic); ${h.retention.belowArchive} below the archive threshold.`,
        'muted',
      ),
    );
  root.append(heading('Lifecycle runs'));
  root.append(
    h.runs.length === 0
      ? paragraph(
          'No lifecycle run yet: runs appear here with what each promoted, archived and merged.',
          'muted',
        )
      : runsTable(h.runs),
  );
}

function duplicatesText(h: LifecycleHealth): [string, string] {
  const d = h.duplicates;
  if (d.pairs === null) return ['–', d.reason ?? 'not counted'];
  const notes = [
    d.countedAt === null ? undefined : `counted ${formatTime(d.countedAt)}`,
    d.stale ? 'memories changed since' : undefined,
  ];
  return [String(d.pairs), notes.filter((n) => n !== undefined).join('; ')];
}

function runsTable(runs: readonly LifecycleRun[]): HTMLTableElement {
  const table = element('table');
  const caption = element('caption');
  caption.textContent = 'Newest first';
  const head = element('tr');
  for (const name of ['When', 'Promoted', 'Archived', 'Consolidated', 'Merged']) {
    const th = element('th');
    th.scope = 'col';
    th.textContent = name;
    head.append(th);
  }
  table.append(caption, head);
  for (const run of runs) {
    const row = element('tr');
    const consolidated = run.consolidated === 0 ? '0' : `${run.consolidated} (from ${run.superseded})`;
    for (const value of [formatTime(run.at), run.promoted, run.archived, consolidated, run.merged]) {
      const td = element('td');
      td.textContent = String(value);
      row.append(td);
    }
    table.append(row);
  }
  return table;
}

/** "2026-11-28 14:03", local time. */
export function formatTime(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

function tile(label: string, value: string, note: string): HTMLDivElement {
  const box = element('div', 'tile');
  const dt = element('dt');
  dt.textContent = label;
  const dd = element('dd');
  dd.textContent = value;
  const small = element('span', 'note');
  small.textContent = note;
  dd.append(small);
  box.append(dt, dd);
  return box;
}

function heading(content: string): HTMLHeadingElement {
  const h = element('h3');
  h.textContent = content;
  return h;
}

function paragraph(content: string, className: string): HTMLParagraphElement {
  const p = element('p', className);
  p.textContent = content;
  return p;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}
