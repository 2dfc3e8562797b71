import type { RetentionBin } from './protocol';

/** The chart's drawing box (viewBox units; the SVG scales to its container's width). */
const WIDTH = 560;
const HEIGHT = 200;
const PAD = { left: 34, right: 12, top: 12, bottom: 34 };
const SVG = 'http://www.w3.org/2000/svg';

/** "0-1 d", "1-7 d", ..., "180+ d": an idle-age bin's label. */
export function binLabel(bin: RetentionBin): string {
  return bin.toDays === null ? `${bin.fromDays}+ d` : `${bin.fromDays}-${bin.toDays} d`;
}

/** What a point says to a screen reader and on hover. */
export function pointText(bin: RetentionBin): string {
  const idle = bin.toDays === null ? `${bin.fromDays} days or more` : `${bin.fromDays} to ${bin.toDays} days`;
  return `${bin.memories} memories idle ${idle}: mean retention ${Math.round((bin.meanRetention ?? 0) * 100)}%`;
}

/**
 * The retention curve as a small SVG: mean retention (0-100%) of the fading memories per idle-age
 * bin, the bins evenly spaced, empty bins skipped by the line, and the archive rule's threshold as
 * a dashed line. Colours come from the theme through the page's CSS classes; every label is text.
 */
export function retentionChart(bins: readonly RetentionBin[], threshold: number): SVGSVGElement {
  const svg = element('svg', { id: 'retention-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img' });
  const shown = bins.filter((b) => b.meanRetention !== null);
  svg.setAttribute('aria-label', chartSummary(shown, threshold));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (bins.length <= 1 ? plotW / 2 : (i * plotW) / (bins.length - 1));
  const y = (r: number) => PAD.top + (1 - r) * plotH;
  const base = y(0);
  svg.append(element('line', { class: 'axis', x1: PAD.left, y1: base, x2: WIDTH - PAD.right, y2: base }));
  for (const r of [0, 0.5, 1])
    svg.append(text(`${r * 100}%`, { x: PAD.left - 4, y: y(r) + 3, 'text-anchor': 'end' }));
  bins.forEach((bin, i) =>
    svg.append(text(binLabel(bin), { x: x(i), y: base + 14, 'text-anchor': 'middle' })),
  );
  svg.append(
    text('days since written or last recalled', {
      x: PAD.left + plotW / 2,
      y: HEIGHT - 4,
      'text-anchor': 'middle',
    }),
  );
  const t = y(threshold);
  svg.append(element('line', { class: 'threshold', x1: PAD.left, y1: t, x2: WIDTH - PAD.right, y2: t }));
  const label = text(`archive below ${Math.round(threshold * 100)}%`, {
    x: WIDTH - PAD.right,
    y: t - 4,
    'text-anchor': 'end',
  });
  label.setAttribute('class', 'threshold-label');
  svg.append(label);
  const points = bins.map((bin, i) => ({ bin, px: x(i), py: y(bin.meanRetention ?? 0) }));
  // One line per run of non-empty bins: an empty bin is a gap, not a value to interpolate.
  let segment: typeof points = [];
  for (const p of [...points, undefined]) {
    if (p && p.bin.meanRetention !== null) segment.push(p);
    else if (segment.length > 0) {
      const line = segment.map((q) => `${q.px},${q.py}`).join(' ');
      svg.append(element('polyline', { class: 'curve', points: line }));
      segment = [];
    }
  }
  for (const p of points.filter((q) => q.bin.meanRetention !== null)) {
    const dot = element('circle', { class: 'point', cx: p.px, cy: p.py, r: 3.5 });
    const title = element('title', {});
    title.textContent = pointText(p.bin);
    dot.append(title);
    svg.append(dot);
  }
  return svg;
}

/** The chart in one sentence, for its accessible name. */
function chartSummary(shown: readonly RetentionBin[], threshold: number): string {
  const points = shown.map((b) => `${binLabel(b)} ${Math.round((b.meanRetention ?? 0) * 100)}%`).join(', ');
  return `Retention curve: mean retention by days idle (${points}); archived below ${Math.round(threshold * 100)}%`;
}

function text(content: string, attributes: Record<string, string | number>): SVGTextElement {
  const node = element('text', attributes);
  node.textContent = content;
  return node;
}

function element<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}
