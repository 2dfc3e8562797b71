import { invalidParams } from './argumentErrors';
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_BUDGET, fitToBudget } from './budget';
import { capturedResource } from './captureResources';
import { memoryView, shrinkMemoryView } from './memoryView';
import type { ToolContext } from './toolDefinition';
import { repoMapWithin } from './tools/codeTools';
import { driftCheckPage } from './tools/driftTools';

/** Resources: one memory by id, the newest memories, the compat knowledge graph, the repo map and the drift report. */
export const RESOURCES: Resource[] = [
  {
    uri: 'memory://recent',
    name: 'recent',
    title: 'Recent memories',
    description: 'The newest active memories, within a token budget',
    mimeType: 'application/json',
  },
  {
    uri: 'code://map',
    name: 'code-map',
    title: 'Repository map',
    description:
      'The ranked map of the code index (most important files and their main signatures), within a token budget; empty until the workspace is scanned (code_scan)',
    mimeType: 'application/json',
  },
  {
    // The official MCP memory server's resource, named and described as there (the compat profile).
    uri: 'memory://knowledge-graph',
    name: 'knowledge-graph',
    title: 'Knowledge Graph',
    description: 'The full knowledge graph with all entities and relations',
    mimeType: 'application/json',
  },
  {
    uri: 'drift://report',
    name: 'drift-report',
    title: 'Drift report',
    description:
      'A drift check of every memory against the workspace and its git history: the score and the drifted memories. Reading it runs the check, which records its verdicts as drift_check does',
    mimeType: 'application/json',
  },
];

/** Resources whose reading records something (the drift check's verdicts); the rest change nothing. */
export const RECORDING_RESOURCES: ReadonlySet<string> = new Set(['drift://report']);

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'memory://{id}',
    name: 'memory',
    title: 'A memory',
    description: 'One memory with every field and its notes',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'session://{id}/transcript',
    name: 'session-transcript',
    title: 'A captured session',
    description:
      "A captured agent session's turns in order (redacted as stored), with the tools called after each, within a token budget",
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'file-history://{path}',
    name: 'file-history',
    title: 'What the sessions did to a file',
    description:
      'What every captured agent session did to a workspace file (read, edit, create, delete; lines added), and which commits carried it',
    mimeType: 'application/json',
  },
];

const RECENT_COUNT = 50;

export async function readResource(uri: string, context: ToolContext): Promise<ReadResourceResult> {
  // Compact, as the budget counts it: indentation alone would add ~20% tokens.
  const json = (value: unknown) => ({
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }],
  });
  if (uri === 'memory://recent') {
    const page = await context.call('list', { limit: RECENT_COUNT });
    const fitted = fitToBudget(page.items.map(memoryView), DEFAULT_BUDGET, shrinkMemoryView);
    return json({ memories: fitted.items, total: page.total });
  }
  // The official memory server's resource, answered as it answers it (indented, the whole graph).
  if (uri === 'memory://knowledge-graph')
    return {
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify(await context.call('graphRead', {}), null, 2),
        },
      ],
    };
  if (uri === 'code://map') return json(await repoMapWithin({}, DEFAULT_BUDGET, context));
  if (uri === 'drift://report') {
    const { summary, memories, next } = await driftCheckPage({}, 0, DEFAULT_BUDGET, context);
    return json({ ...summary, memories, more: next !== null });
  }
  const captured = await capturedResource(uri, context);
  if (captured !== undefined) return json(captured);
  const match = /^memory:\/\/([^/?#]{1,200})$/.exec(uri);
  if (!match?.[1]) throw invalidParams(`uri: no resource ${JSON.stringify(uri.slice(0, 200))}`);
  const id = decodeURIComponent(match[1]);
  const { memory, annotations } = await context.call('get', { id });
  const view = fitToBudget([memoryView(memory)], DEFAULT_BUDGET, shrinkMemoryView).items[0];
  return json({ memory: view, context: memory.context, annotations: annotations.slice(-20) });
}
