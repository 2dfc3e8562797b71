/**
 * What the engine needs from whoever hosts it (extension host, MCP bridge, CLI, tests). The engine
 * never guesses paths or reads the environment itself: hosts pass these in.
 */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Milliseconds since the epoch. Injected so tests can control time. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** A logger that drops everything: for hosts that do not want engine logs. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** A logger that writes to stderr (never stdout: stdout is the MCP channel). */
export function stderrLogger(minLevel: 'debug' | 'info' | 'warn' | 'error' = 'warn'): Logger {
  const order = ['debug', 'info', 'warn', 'error'] as const;
  const threshold = order.indexOf(minLevel);
  const write = (level: (typeof order)[number]) => (message: string, data?: Record<string, unknown>) => {
    if (order.indexOf(level) < threshold) return;
    process.stderr.write(`[engram ${level}] ${message}${data ? ` ${JSON.stringify(data)}` : ''}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
