import { timeToX } from './layout';
import type { Viewport } from './layout';
import type { TimelineSession } from './protocol';
import { agentName } from './protocol';

/** The lane of captured agent sessions, below scans and drift: up to SESSION_ROWS rows of bands. */
export const SESSION_ROWS = 2;
const ROW_H = 9;
export const SESSIONS_H = SESSION_ROWS * ROW_H + 4;

/** One colour per agent, from the theme's chart colours. */
const AGENT_COLOURS: Record<string, string> = {
  'claude-code': '--vscode-charts-orange',
  codex: '--vscode-charts-green',
  aider: '--vscode-charts-purple',
  gemini: '--vscode-charts-blue',
  copilot: '--vscode-charts-yellow',
  cline: '--vscode-charts-red',
  'roo-code': '--vscode-charts-red',
  opencode: '--vscode-charts-foreground',
};

/** A band's hover text: agent, start and end, turns, what was asked (untrusted: drawn as text). */
export function sessionLabel(s: TimelineSession): string {
  const start = new Date(s.startedAt);
  const end = new Date(s.endedAt);
  const until = start.toDateString() === end.toDateString() ? end.toLocaleTimeString() : end.toLocaleString();
  const title = s.title ? `\n${s.title.replace(/\s+/g, ' ').slice(0, 200)}` : '';
  return `${agentName(s.agent)} session · ${s.turns} turns\n${start.toLocaleString()} → ${until}${title}\nclick to open its transcript`;
}

export interface SessionBand {
  session: TimelineSession;
  x1: number;
  x2: number;
  y1: number;
  y2: number;
}

/**
 * Where each session in view is drawn: packed greedily into rows so that overlapping sessions
 * (two agents at once) sit on separate lines; past SESSION_ROWS they share the row that frees
 * first. A band is at least 3 px wide, so a session of a few seconds stays visible and clickable.
 */
export function sessionBands(sessions: readonly TimelineSession[], v: Viewport, top: number): SessionBand[] {
  const rowEnds: number[] = [];
  const bands: SessionBand[] = [];
  for (const session of sessions) {
    if (session.endedAt < v.from || session.startedAt > v.to) continue;
    const x1 = Math.max(-2, timeToX(v, session.startedAt));
    const x2 = Math.min(v.width + 2, Math.max(x1 + 3, timeToX(v, session.endedAt)));
    let row = rowEnds.findIndex((end) => end < x1 - 1);
    if (row < 0) row = rowEnds.length < SESSION_ROWS ? rowEnds.length : firstFree(rowEnds);
    rowEnds[row] = Math.max(rowEnds[row] ?? -Infinity, x2);
    const y1 = top + 2 + row * ROW_H;
    bands.push({ session, x1, x2, y1, y2: y1 + ROW_H - 1 });
  }
  return bands;
}

function firstFree(rowEnds: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < rowEnds.length; i++) if ((rowEnds[i] as number) < (rowEnds[best] as number)) best = i;
  return best;
}

/** Draws the lane's bands, the selected one outlined; returns them for hit testing. */
export function drawSessions(
  ctx: CanvasRenderingContext2D,
  sessions: readonly TimelineSession[],
  v: Viewport,
  top: number,
  selectedId: string | undefined,
  css: (name: string, fallback: string) => string,
): SessionBand[] {
  ctx.fillStyle = css('--vscode-descriptionForeground', '#999');
  ctx.fillText('sessions', 4, top + SESSIONS_H / 2);
  const bands = sessionBands(sessions, v, top);
  const text = css('--vscode-editor-background', '#1e1e1e');
  for (const band of bands) {
    const w = band.x2 - band.x1;
    ctx.globalAlpha = 0.85;
    ctx.fillStyle = css(AGENT_COLOURS[band.session.agent] ?? '--vscode-charts-blue', '#fa4');
    ctx.fillRect(band.x1, band.y1, w, band.y2 - band.y1);
    ctx.globalAlpha = 1;
    // A name inside when there is room: the agent and the turns.
    const name = `${agentName(band.session.agent)} · ${band.session.turns} turns`;
    if (w > ctx.measureText(name).width + 8) {
      ctx.fillStyle = text;
      ctx.save();
      ctx.font = `9px ${css('--vscode-font-family', 'sans-serif')}`;
      ctx.fillText(name, band.x1 + 4, (band.y1 + band.y2) / 2);
      ctx.restore();
    }
    if (band.session.id === selectedId) {
      ctx.strokeStyle = css('--vscode-focusBorder', '#07f');
      ctx.lineWidth = 2;
      ctx.strokeRect(band.x1 - 1, band.y1 - 1, w + 2, band.y2 - band.y1 + 2);
      ctx.lineWidth = 1;
    }
  }
  return bands;
}
