import { invalidParams } from './argumentErrors';
import { DEFAULT_BUDGET, fitToBudget } from './budget';
import type { ToolContext } from './toolDefinition';

const TRANSCRIPT = /^session:\/\/([^/?#]{1,200})\/transcript$/;
const FILE_HISTORY = /^file-history:\/\/(.{1,1000})$/;

function decoded(part: string, uri: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw invalidParams(`uri: not a valid URI ${JSON.stringify(uri.slice(0, 200))}`);
  }
}

/**
 * The capture resources, as JSON values within the default budget: `session://{id}/transcript`
 * (the first turns that fit; `more` says whether others follow) and `file-history://{path}` (the
 * most recent sessions that fit). Undefined for any other URI.
 */
export async function capturedResource(uri: string, context: ToolContext): Promise<unknown> {
  const transcript = TRANSCRIPT.exec(uri);
  if (transcript?.[1]) {
    const t = await context.call('captureTranscript', { session: decoded(transcript[1], uri) });
    const fitted = fitToBudget(t.turns, DEFAULT_BUDGET - 100, (turn, budget) => ({
      ...turn,
      text: turn.text.slice(0, budget * 2),
    }));
    return { session: t.session, turns: fitted.items, total: t.total, more: fitted.taken < t.total };
  }
  const history = FILE_HISTORY.exec(uri);
  if (history?.[1]) {
    const h = await context.call('fileHistory', { file: decoded(history[1], uri) });
    const fitted = fitToBudget(h.sessions, DEFAULT_BUDGET - 100);
    return { file: h.file, sessions: fitted.items, more: fitted.taken < h.sessions.length };
  }
  return undefined;
}
