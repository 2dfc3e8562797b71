import { createBridgeServer } from './connectionServer';
import type { BridgeRuntime } from './processRuntime';
import { LineDelimitedTransport } from './stdioTransport';

/** Serves one client over stdin/stdout; resolves when the client closes stdin (or the process is told to stop). */
export async function serveStdio(runtime: BridgeRuntime): Promise<void> {
  const server = createBridgeServer(runtime);
  const transport = new LineDelimitedTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The transport does not notice the end of stdin by itself.
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
