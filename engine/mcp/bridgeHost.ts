import { EngineHost } from '../api/hostDispatcher';
import type { HostOptions } from '../api/hostDispatcher';
import type { ActivityListener } from '../api/engineActivity';
import { isMethodName } from '../api/methods';
import type { MethodSpec } from '../api/methods';
import { asParams } from '../api/params';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import type { HostDispatcher } from '../process/sharedEngine';
import { BRIDGE_METHODS, isBridgeMethodName } from './methods/bridgeMethods';

/**
 * The engine host as the bridge runs it: every engine method goes to EngineHost unchanged; the
 * bridge's own methods (BRIDGE_METHODS) run here with the same exactly-once rule for writes (the
 * request id and the result are stored in the write's own transaction). Once BRIDGE_METHODS is
 * merged into METHODS, isMethodName sends everything to EngineHost and this becomes a pass-through.
 */
export class BridgeHost implements HostDispatcher {
  private constructor(
    private readonly core: EngineHost,
    private readonly logger: Logger,
  ) {}

  static async open(options: HostOptions): Promise<BridgeHost> {
    return new BridgeHost(await EngineHost.open(options), options.logger);
  }

  async dispatch(method: string, params: unknown, meta: { requestId: string; client: string }) {
    if (isMethodName(method) || !isBridgeMethodName(method)) return this.core.dispatch(method, params, meta);
    try {
      const spec: MethodSpec<unknown> = BRIDGE_METHODS[method];
      const result = await this.execute(spec, asParams(params, method), method, meta.requestId);
      if (spec.write) this.core.announceWrite(method, meta);
      return result;
    } catch (error) {
      if (!EngramError.is(error))
        this.logger.error(`${method} failed`, { error: String(error), client: meta.client });
      throw error instanceof Error ? error : new Error(String(error));
    }
  }

  private async execute(
    spec: MethodSpec<unknown>,
    params: Record<string, unknown>,
    method: string,
    requestId: string,
  ) {
    const store = this.core.store;
    if (!spec.write) return spec.run(store, params);
    const prepared = spec.prepare ? await spec.prepare(store, params) : undefined;
    return store.write((tx, now) => {
      const prior = tx.value<string>('SELECT result FROM applied_requests WHERE request_id = ?', [requestId]);
      if (prior !== undefined) return JSON.parse(prior) as unknown;
      const result = spec.run(store, params, prepared);
      tx.run('INSERT INTO applied_requests (request_id, method, result, at) VALUES (?, ?, ?, ?)', [
        requestId,
        method,
        JSON.stringify(result ?? null),
        now,
      ]);
      return result;
    });
  }

  /** Live activity: the engine's recalls and writes, and this bridge's own writes. */
  onActivity(listener: ActivityListener): () => void {
    return this.core.onActivity(listener);
  }

  close(): Promise<void> {
    return this.core.close();
  }
}
