/**
 * A client's connection to the engine host: connect, greet (which proves the host has finished
 * opening the database and speaks our protocol), then forward calls with their request ids.
 */
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { assertEndpointTrusted } from './endpoint';
import { DISPATCH_METHOD, HELLO_METHOD, PROTOCOL_VERSION, parseHelloResult } from './hostProtocol';
import type { DispatchParams, HelloParams } from './hostProtocol';
import { RpcClient } from './rpc';

export interface HostConnection {
  /** The host's pid, as it reported it. */
  readonly hostPid: number;
  /** Rejects with ConnectionLostError if the connection closes before the answer arrives. */
  dispatch(method: string, params: unknown, requestId: string): Promise<unknown>;
  /** Called once when the connection closes, for whatever reason. */
  onClose(listener: () => void): () => void;
  close(): void;
}

export interface ConnectOptions {
  clientName: string;
  logger: Logger;
  /** Budget for connecting and the greeting together. */
  timeoutMs: number;
}

export async function connectToHost(endpoint: string, options: ConnectOptions): Promise<HostConnection> {
  // The endpoint comes from the lock file, which anyone who can write the workspace can edit.
  assertEndpointTrusted(endpoint);
  const started = Date.now();
  const client = await RpcClient.connect(endpoint, {
    logger: options.logger,
    connectTimeoutMs: Math.min(options.timeoutMs, 2_000),
  });
  try {
    const hello: HelloParams = { protocol: PROTOCOL_VERSION, client: options.clientName };
    const answer = parseHelloResult(
      await client.call(HELLO_METHOD, hello, {
        timeoutMs: Math.max(100, options.timeoutMs - (Date.now() - started)),
      }),
    );
    if (answer.protocol !== PROTOCOL_VERSION) {
      throw new EngramError(
        'UNAVAILABLE',
        `the engine host (pid ${answer.pid}) speaks protocol ${answer.protocol}, this process speaks ${PROTOCOL_VERSION}: restart the older one`,
        { reason: 'protocol' },
      );
    }
    options.logger.info('connected to engine host', { hostPid: answer.pid, endpoint });
    return {
      hostPid: answer.pid,
      dispatch(method, params, requestId) {
        const call: DispatchParams = { method, params, requestId, client: options.clientName };
        return client.call(DISPATCH_METHOD, call);
      },
      onClose: (listener) => client.onClose(listener),
      close: () => client.close(),
    };
  } catch (error) {
    client.close();
    throw error;
  }
}
