/**
 * A small test harness for code that must run inside the VS Code extension host (where node:test's
 * process-level runner has no place). Results go to a JSON file that the node:test side
 * (test/vscode/extensionHost.test.ts) turns into one subtest each, so there is one report.
 */
export interface InHostResult {
  name: string;
  ok: boolean;
  error?: string;
  ms: number;
}

type TestBody = () => Promise<void> | void;
const registered: Array<{ name: string; body: TestBody }> = [];
/** Figures a test measured (activation, main-thread time), reported beside the results. */
export const figures: Record<string, number | string> = {};

export function test(name: string, body: TestBody): void {
  registered.push({ name, body });
}

/** Runs the tests in order (they share one window and build on each other's memories). */
export async function runRegistered(onResult: (r: InHostResult) => void): Promise<InHostResult[]> {
  const results: InHostResult[] = [];
  for (const { name, body } of registered) {
    const started = Date.now();
    let result: InHostResult;
    try {
      await body();
      result = { name, ok: true, ms: Date.now() - started };
    } catch (error) {
      const message = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
      result = { name, ok: false, error: message, ms: Date.now() - started };
    }
    results.push(result);
    onResult(result);
  }
  return results;
}

/** Waits for a condition the extension reaches asynchronously (engine ready, a scan finished). */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  limitMs = 60_000,
): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
