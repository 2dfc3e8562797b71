/**
 * Compile-time checks of the method table's types, run by `npx tsc -p . --noEmit` (not a runtime
 * test): every host's `call` takes the method's own parameters and returns its own result. Each
 * `@ts-expect-error` line fails the typecheck if the wrong call it marks ever compiles.
 */
import type { MethodName, MethodParams, MethodResult } from '../../engine/api/methods';
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
  // @ts-expect-error a recall answers with hits, not a context block
  const wrong: ContextBlock = await call('recall', { query: 'auth' });
  void wrong;
}
