/**
 * Compile-time checks of the method table's types, run by `npx tsc -p . --noEmit` (not a runtime
 * test): every host's `call` takes the method's own parameters and returns its own result. Each
 * `@ts-expect-error` line fails the typecheck if the wrong call it marks ever compiles.
 */
import type { MethodName, MethodParams, MethodResult } from '../../engine/api/methods';
import type { DriftReport, ScanDrift } from '../../engine/drift/driftReport';
import type { Memory, RememberResult } from '../../engine/memory/types';
import type { ContextBlock } from '../../engine/retrieval/contextBuilder';
import type { RecallResult } from '../../engine/retrieval/recall';

type Call = <M extends MethodName>(method: M, params: MethodParams<M>) => Promise<MethodResult<M>>;

export async function typedCalls(call: Call): Promise<void> {
  const recalled: RecallResult = await call('recall', { query: 'auth', k: 5, layer: 'semantic' });
  const block: ContextBlock = await call('context', { query: 'auth', budget: 2000 });
  void recalled;
  void block;

  // @ts-expect-error recall needs a query
  await call('recall', { k: 5 });
  // @ts-expect-error k is a number
  await call('recall', { query: 'auth', k: '5' });
  // @ts-expect-error layer is one of LAYERS
  await call('recall', { query: 'auth', layer: 'nowhere' });
  // @ts-expect-error channels are channel names
  await call('recall', { query: 'auth', channels: ['telepathy'] });
  // @ts-expect-error budget is a number
  await call('context', { query: 'auth', budget: 'large' });
  // @ts-expect-error no such method
  await call('recal', { query: 'auth' });

  const remembered: RememberResult = await call('remember', { content: 'auth uses JWT', tags: ['auth'] });
  const edited: Memory = await call('edit', { id: 'm_1', changes: { importance: 0.9, context: null } });
  const drift: DriftReport = await call('drift', { paths: ['src/auth.ts'] });
  await call('graphNeighbourhood', { seeds: [{ entity: 'auth' }, { memory: 'm_1' }], hops: 2 });
  await call('graphCreateEntities', { entities: [{ name: 'a', entityType: 't', observations: [] }] });
  // A scan brings the drift of the memories naming what it changed.
  const scanned: ScanDrift = (await call('scan', { paths: ['src/auth.ts'] })).drift;
  void [remembered, edited, drift, scanned];

  // @ts-expect-error remember needs content
  await call('remember', { tags: ['auth'] });
  // @ts-expect-error tags are a list of text
  await call('remember', { content: 'auth', tags: 'auth' });
  // @ts-expect-error kind is one of KINDS
  await call('remember', { content: 'auth', kind: 'rumour' });
  // @ts-expect-error an edit's changes are the memory's fields
  await call('edit', { id: 'm_1', changes: { importance: 'high' } });
  // @ts-expect-error forget takes an id
  await call('forget', { memory: 'm_1' });
  // @ts-expect-error list status is a status or all
  await call('list', { status: 'sleeping' });
  // @ts-expect-error asOf needs a time
  await call('asOf', { axis: 'valid' });
  // @ts-expect-error drift paths are a list
  await call('drift', { paths: 'src/auth.ts' });
  // @ts-expect-error symbols needs a query
  await call('symbols', { limit: 5 });
  // @ts-expect-error a timeline limit is a number
  await call('timeline', { limit: 'all' });
  // @ts-expect-error knowledge-graph entities need an entityType
  await call('graphCreateEntities', { entities: [{ name: 'a', observations: [] }] });
  // @ts-expect-error export formats are jsonl and md
  await call('export', { format: 'pdf' });
  // @ts-expect-error a recall answers with hits, not a context block
  const wrong: ContextBlock = await call('recall', { query: 'auth' });
  void wrong;
}
