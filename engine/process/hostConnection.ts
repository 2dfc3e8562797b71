/**
 * A client's connection to the engine host: connect, greet (which proves the host has finished
 * opening the database and speaks our protocol), then forward calls with their request ids.
 */
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { assertEndpointTrusted } from './endpoint';
import {
  ACTIVITY_METHOD,
  DISPATCH_METHOD,
  HELLO_METHOD,
  PROTOCOL_VERSION,
  parseActivityNotification,
  parseHelloResult,
} from './hostProtocol';
import type { DispatchParams, HelloParams } from './hostProtocol';
import { RpcClient } from './rpc';
import type { HostActivityListener } from './sharedEngine';

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
  /** Asks the host for its activity notifications and hands them here. */
  onActivity?: HostActivityListener;
}

export async function connectToHost(endpoint: string, options: ConnectOptions): Promise<HostConnection> {
  // The endpoint comes from the lock file, which anyone who can write the workspace can edit.
  assertEndpointTrusted(endpoint);
  const started = Date.now();
  const onActivity = options.onActivity;
  const client = await RpcClient.connect(endpoint, {
    logger: options.logger,
    connectTimeoutMs: Math.min(options.timeoutMs, 2_000),
    ...(onActivity
      ? {
          onNotification: (method: string, params: unknown) => {
            const notice = method === ACTIVITY_METHOD ? parseActivityNotification(params) : null;
            if (notice) onActivity(notice.activity, notice.requestId);
            else options.logger.debug('ignored a notification from the engine host', { method });
          },
        }
      : {}),
  });
  try {
    const hello: HelloParams = {
      protocol: PROTOCOL_VERSION,
      client: options.clientName,
      ...(onActivity ? { activity: true } : {}),
    };
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
