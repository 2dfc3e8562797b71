import { createHash } from 'node:crypto';
import { storedText } from '../extract/storedText';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import type { ConsolidationCluster } from './consolidation';
import { namesEntity } from './gist';
import { MODEL_SUMMARY_RULE } from './summariser';
import type { ProvidedSummary, SummaryRequest } from './summariser';

/**
 * The engine's side of model-written summaries (summariser.ts has the caller's): what may be sent
 * for a planned cluster, and whether what came back replaces its extractive gist. A relevant or
 * faded cluster can have one; a pattern's text is a rule's and stays.
 */

/** Why a cluster kept its extractive gist, or the model that wrote its summary. */
export type SummaryOrigin = { by: 'model'; model: string } | { by: 'extractive'; reason: string };

const SUMMARISED: ReadonlySet<ConsolidationCluster['reason']> = new Set(['relevant', 'faded']);

/**
 * What would be sent for each cluster: its members' current texts, redacted again (the store
 * keeps them redacted; a text written before a pattern was known is caught here), each cut at
 * `memberChars` and all within `inputChars` (later members are left out), and the entities.
 */
export function summaryRequests(
  reader: SqlReader,
  clusters: readonly ConsolidationCluster[],
): Array<SummaryRequest | undefined> {
  const ids = clusters.filter((c) => SUMMARISED.has(c.reason)).flatMap((c) => c.members);
  const rows = currentRows(reader, ids);
  const texts = new Map(rows.map((row) => [row.id, row.content]));
  const versions = new Map(rows.map((row) => [row.id, row.version]));
  return clusters.map((cluster) => {
    if (!SUMMARISED.has(cluster.reason)) return undefined;
    const sent: string[] = [];
    let length = 0;
    for (const id of cluster.members) {
      const text = storedText(texts.get(id) ?? '').slice(0, MODEL_SUMMARY_RULE.memberChars);
      if (text === '' || length + text.length > MODEL_SUMMARY_RULE.inputChars) break;
      sent.push(text);
      length += text.length;
    }
    return {
      texts: sent,
      entities: cluster.entities,
      maxChars: MODEL_SUMMARY_RULE.maxChars,
      basis: basisOf(cluster.members, versions),
    };
  });
}

/**
 * Each summarised cluster with the model's summary when it is fit (`origin.by: 'model'`), or its
 * extractive gist and the reason (`origin.by: 'extractive'`): none given for it (the cluster
 * changed since the model was asked), the caller's failure (timeout, refusal, HTTP error), an
 * empty text, one past the limit, or one that names none of the cluster's entities. The text is
 * redacted before it is kept: a model may repeat what it was not sent.
 */
export function withProvidedSummaries(
  reader: SqlReader,
  clusters: readonly ConsolidationCluster[],
  provided: readonly ProvidedSummary[],
): ConsolidationCluster[] {
  const byMembers = new Map(provided.map((p) => [memberKey(p.members), p]));
  const ids = clusters.filter((c) => SUMMARISED.has(c.reason)).flatMap((c) => c.members);
  const versions = new Map(currentRows(reader, ids).map((row) => [row.id, row.version]));
  return clusters.map((cluster) => {
    if (!SUMMARISED.has(cluster.reason)) return cluster;
    const given = byMembers.get(memberKey(cluster.members));
    const stale = given?.text !== undefined && given.basis !== basisOf(cluster.members, versions);
    const verdict = stale ? CHANGED : judge(cluster, given);
    if (typeof verdict === 'string') return { ...cluster, origin: { by: 'extractive', reason: verdict } };
    return {
      ...cluster,
      summary: verdict.text,
      quoted: cluster.members,
      origin: { by: 'model', model: verdict.model },
    };
  });
}

function judge(
  cluster: ConsolidationCluster,
  given: ProvidedSummary | undefined,
): string | { text: string; model: string } {
  if (!given) return CHANGED;
  if (given.failure !== undefined) return given.failure;
  const text = (given.text ?? '').trim();
  if (text === '') return 'the model wrote no text';
  const limit = MODEL_SUMMARY_RULE.maxChars;
  if (text.length > limit)
    return `the model's summary has ${text.length} characters, over the limit of ${limit}`;
  if (cluster.entities.length > 0 && !namesEntity(text, cluster.entities))
    return `the model's summary names none of the cluster's entities (${cluster.entities.slice(0, 5).join(', ')})`;
  return { text: storedText(text), model: given.model?.trim() || 'unknown model' };
}

const CHANGED = 'no model summary for this cluster as it is now (it changed since the model was asked)';

/** Each member's current version row: a change to any member (text, status, tags) is a new one. */
function currentRows(
  reader: SqlReader,
  ids: readonly string[],
): Array<{ id: string; content: string; version: number }> {
  return allForIds(
    reader,
    (marks) =>
      `SELECT id, content, rowid AS version FROM memories WHERE superseded_at IS NULL AND id IN (${marks})`,
    ids,
  );
}

/** Which versions of the members a summary was written from: their ids and version rows. */
function basisOf(members: readonly string[], versions: ReadonlyMap<string, number>): string {
  const hash = createHash('sha256');
  for (const id of [...members].sort()) hash.update(`${id}@${versions.get(id) ?? 0},`);
  return hash.digest('hex').slice(0, 32);
}

function memberKey(members: readonly string[]): string {
  return [...members].sort().join(',');
}

/**
 * What the `consolidate` event of a consolidated memory says of its summary: written by a model
 * (which), or extractive after a model was asked (why). Undefined for any other memory, and for
 * a gist no model was asked about.
 */
export function summaryOriginOf(reader: SqlReader, memoryId: string): SummaryOrigin | undefined {
  const data = reader.value<string>(
    "SELECT data FROM events WHERE type = 'consolidate' AND memory_id = ? ORDER BY seq DESC LIMIT 1",
    [memoryId],
  );
  const origin = data === undefined ? undefined : (JSON.parse(data) as { summary?: SummaryOrigin }).summary;
  return origin && (origin.by === 'model' || origin.by === 'extractive') ? origin : undefined;
}
