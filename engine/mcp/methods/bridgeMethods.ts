import type { MethodSpec } from '../../api/methods';
import { EVENT_METHODS } from './eventMethods';
import { GRAPH_METHODS } from './graphMethods';

/**
 * The API methods the MCP bridge needs beyond engine/api/methods.ts: the event ledger for the
 * timeline and the entity-graph operations of the compat profile. To be merged into METHODS; until
 * then a bridge that hosts the database serves them itself (bridgeHost.ts), and a bridge whose host
 * lacks them answers those tools with a clear error.
 */
export const BRIDGE_METHODS = { ...EVENT_METHODS, ...GRAPH_METHODS } satisfies Record<
  string,
  MethodSpec<unknown>
>;

export type BridgeMethodName = keyof typeof BRIDGE_METHODS;

export function isBridgeMethodName(name: string): name is BridgeMethodName {
  return Object.prototype.hasOwnProperty.call(BRIDGE_METHODS, name);
}
