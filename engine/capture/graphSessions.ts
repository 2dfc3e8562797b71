import type { GraphEdge, GraphNode, GraphPayload } from '../api/graphMethods';
import { json, oneLine } from '../api/graphPayload';
import type { SqlReader } from '../store/sqlAccess';
import { agentName } from './agentNames';

/** Bounds of the session layer, so a file that fifty sessions edited does not flood the picture. */
export const SESSIONS_PER_FILE = 5;
export const MAX_SESSION_NODES = 50;
export const MAX_COMMIT_NODES = 50;

const LABEL_CHARS = 60;

interface Touch {
  path: string;
  session: string;
  at: number | null;
}

interface SessionRow {
  id: string;
  agent: string;
  startedAt: number | null;
  turns: number;
  title: string | null;
}

interface LinkRow {
  session: string;
  sha: string;
  path: string;
  subject: string;
  committedAt: number;
  lines: number;
  sessionLines: number;
}

/**
 * Adds to a graph the captured sessions that edited its file entities (the most recent few per
 * file, at most MAX_SESSION_NODES) and the commits that carry those sessions' edits of them (at
 * most MAX_COMMIT_NODES), with an edge from each session to the files it edited, and from each
 * commit to its session and to the file. The entity and memory nodes are left as they are.
 */
export function addSessionLayer(r: SqlReader, payload: GraphPayload): GraphPayload {
  const files = fileEntities(r, payload.nodes);
  if (files.size === 0) return payload;
  const touches = r.all<Touch>(
    `SELECT path, session_id AS session, max(at) AS at FROM capture_file_touches
     WHERE action != 'read' AND path IN (SELECT value FROM json_each(?))
     GROUP BY path, session_id ORDER BY max(at) DESC, session_id`,
    [json([...files.keys()])],
  );
  const chosen = chooseSessions(touches);
  if (chosen.size === 0) return payload;
  const sessions = sessionRows(r, [...chosen]);
  const nodes: GraphNode[] = [...payload.nodes];
  const edges: GraphEdge[] = [...payload.edges];
  for (const s of sessions) nodes.push(sessionNode(s, 1 + hopsOf(files, touches, s.id)));
  for (const t of touches) {
    const file = files.get(t.path);
    if (file && chosen.has(t.session))
      edges.push({ source: `s:${t.session}`, target: file.id, kind: 'edit', type: 'edited', strength: 0.6 });
  }
  const links = r.all<LinkRow>(
    `SELECT session_id AS session, commit_sha AS sha, path, subject, committed_at AS committedAt,
       lines, session_lines AS sessionLines
     FROM capture_commit_links
     WHERE session_id IN (SELECT value FROM json_each(?)) AND path IN (SELECT value FROM json_each(?))
     ORDER BY committed_at DESC, commit_sha`,
    [json([...chosen]), json([...files.keys()])],
  );
  const commits = new Map<string, LinkRow>();
  for (const link of links) {
    if (!commits.has(link.sha) && commits.size >= MAX_COMMIT_NODES) continue;
    if (!commits.has(link.sha)) commits.set(link.sha, link);
    const share = link.sessionLines > 0 ? Math.min(1, link.lines / link.sessionLines) : 0.5;
    const id = `c:${link.sha}`;
    edges.push({ source: id, target: `s:${link.session}`, kind: 'commit', type: 'carries', strength: share });
    const file = files.get(link.path);
    if (file) edges.push({ source: id, target: file.id, kind: 'commit', type: 'carries', strength: share });
  }
  for (const c of commits.values()) nodes.push(commitNode(c, 2 + (files.get(c.path)?.hops ?? 0)));
  return { ...payload, nodes, edges };
}

/** The payload's file entities by their path, with their node id and distance from the start. */
function fileEntities(r: SqlReader, nodes: readonly GraphNode[]): Map<string, { id: string; hops: number }> {
  const byEntity = new Map<number, GraphNode>();
  for (const n of nodes) if (n.kind === 'entity' && n.type === 'file') byEntity.set(n.entityId, n);
  const out = new Map<string, { id: string; hops: number }>();
  if (byEntity.size === 0) return out;
  // Labels are cut for drawing: the names come from the entities themselves.
  for (const row of r.all<{ id: number; name: string }>(
    'SELECT id, name FROM entities WHERE id IN (SELECT value FROM json_each(?))',
    [json([...byEntity.keys()])],
  )) {
    const node = byEntity.get(row.id);
    if (node) out.set(row.name, { id: node.id, hops: node.hops });
  }
  return out;
}

/** The most recent SESSIONS_PER_FILE sessions of each file, MAX_SESSION_NODES in all. */
function chooseSessions(touches: readonly Touch[]): Set<string> {
  const perFile = new Map<string, number>();
  const chosen = new Set<string>();
  for (const t of touches) {
    const n = perFile.get(t.path) ?? 0;
    if (n >= SESSIONS_PER_FILE) continue;
    if (!chosen.has(t.session) && chosen.size >= MAX_SESSION_NODES) continue;
    perFile.set(t.path, n + 1);
    chosen.add(t.session);
  }
  return chosen;
}

function hopsOf(
  files: ReadonlyMap<string, { hops: number }>,
  touches: readonly Touch[],
  session: string,
): number {
  let best = Infinity;
  for (const t of touches)
    if (t.session === session) best = Math.min(best, files.get(t.path)?.hops ?? Infinity);
  return Number.isFinite(best) ? best : 0;
}

function sessionRows(r: SqlReader, ids: readonly string[]): SessionRow[] {
  return r.all<SessionRow>(
    `SELECT s.id, s.agent, s.started_at AS startedAt,
       (SELECT count(*) FROM capture_turns t WHERE t.session_id = s.id) AS turns,
       coalesce(s.title, (SELECT substr(text, 1, 300) FROM capture_turns t
         WHERE t.session_id = s.id AND t.role = 'user' ORDER BY t.id LIMIT 1)) AS title
     FROM capture_sessions s WHERE s.id IN (SELECT value FROM json_each(?)) ORDER BY s.started_at, s.id`,
    [json(ids)],
  );
}

function sessionNode(s: SessionRow, hops: number): GraphNode {
  const agent = agentName(s.agent);
  const when =
    s.startedAt === null
      ? 'start unknown'
      : new Date(s.startedAt).toISOString().slice(0, 16).replace('T', ' ');
  const title = s.title ? oneLine(s.title, 240) : '(no request recorded)';
  return {
    id: `s:${s.id}`,
    kind: 'session',
    sessionId: s.id,
    agent: s.agent,
    label: oneLine(`${agent}: ${s.title ?? s.id}`, LABEL_CHARS),
    text: `${agent} session ${s.id.slice(0, 8)} · ${when} UTC · ${s.turns} turns\n${title}`,
    startedAt: s.startedAt,
    hops,
  };
}

function commitNode(c: LinkRow, hops: number): GraphNode {
  return {
    id: `c:${c.sha}`,
    kind: 'commit',
    sha: c.sha,
    label: oneLine(`${c.sha.slice(0, 7)} ${c.subject}`, LABEL_CHARS),
    text: `commit ${c.sha.slice(0, 10)} · ${new Date(c.committedAt).toISOString().slice(0, 10)}\n${oneLine(c.subject, 240)}`,
    committedAt: c.committedAt,
    hops,
  };
}
