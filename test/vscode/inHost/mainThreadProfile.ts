import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';
import type { Beat, CpuProfile, FrameSource, UrlOwner } from '../support/longTasks';

/** Sampling interval: fine enough to see a 20 ms task's frames, coarse enough to cost little. */
const INTERVAL_MICROS = 1000;

/** Microseconds on the clock V8's CPU profiles use (the monotonic clock, as process.hrtime). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** This thread's CPU time in microseconds (process.threadCpuUsage: Node 23.9 and later). */
const threadCpu = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;

function beat(): Beat {
  const usage = threadCpu?.call(process);
  return { at: monotonicMicros(), ...(usage ? { cpu: usage.user + usage.system } : {}) };
}

/**
 * A CPU profile of the extension host's main thread (this thread: the in-host tests run in it),
 * taken through the inspector's in-process session, so no debugging port is opened; beside it a
 * heartbeat, a timer due every millisecond whose beats show when the event loop came round and
 * how much CPU time the thread had used (a long turn with little CPU was descheduled).
 */
export class MainThreadProfile {
  private readonly beats: Beat[] = [];
  private heartbeat: NodeJS.Timeout | undefined;

  private constructor(private readonly session: Session) {}

  static async start(): Promise<MainThreadProfile> {
    const session = new Session();
    session.connect();
    const profile = new MainThreadProfile(session);
    await profile.post('Profiler.enable');
    await profile.post('Profiler.setSamplingInterval', { interval: INTERVAL_MICROS });
    await profile.post('Profiler.start');
    profile.beats.push(beat());
    profile.heartbeat = setInterval(() => profile.beats.push(beat()), 1);
    return profile;
  }

  async stop(): Promise<{ profile: CpuProfile; beats: Beat[] }> {
    clearInterval(this.heartbeat);
    this.beats.push(beat());
    try {
      const { profile } = (await this.post('Profiler.stop')) as { profile: CpuProfile };
      return { profile, beats: this.beats };
    } finally {
      this.session.disconnect();
    }
  }

  private post(method: string, params?: object): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
}

/**
 * Whose code a script is: Engram (its dist/ bundles), the in-host test runner, a built-in or
 * installed extension by its folder name, VS Code itself, Node. Wasm has no owner of its own
 * (sql.js runs it for Engram): the frames above it decide.
 */
export function urlOwner(engramRoot: string): UrlOwner {
  const root = engramRoot.replace(/\/+$/, '');
  return (url) => {
    if (url.startsWith('wasm://')) return undefined;
    if (url.startsWith('node:')) return 'node';
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    if (file.startsWith(`${root}/.vscode-test/`)) return 'test harness';
    if (file.startsWith(`${root}/dist/`)) return 'engram';
    const extension = /\/extensions\/([^/]+)\//.exec(file);
    if (extension) return extension[1];
    if (file.includes('/lib/vscode/')) return 'vscode';
    return undefined;
  };
}

/**
 * The source module of a line in an esbuild bundle, from the `// path/to/module.ts` comment esbuild
 * writes before each module; undefined for any other script.
 */
export function bundleSources(): FrameSource {
  const bundles = new Map<string, { lines: number[]; modules: string[] } | undefined>();
  const read = (url: string) => {
    if (bundles.has(url)) return bundles.get(url);
    let map: { lines: number[]; modules: string[] } | undefined;
    try {
      const file = url.startsWith('file://') ? fileURLToPath(url) : url;
      if (/\/dist\/[^/]+\.js$/.test(file)) {
        map = { lines: [], modules: [] };
        const text = readFileSync(file, 'utf8').split('\n');
        for (const [i, line] of text.entries()) {
          const m = /^\/\/ ((?:[\w@.-]+\/)+[\w.-]+\.(?:ts|js|mjs|cjs))$/.exec(line);
          if (m) {
            map.lines.push(i);
            map.modules.push(m[1]!);
          }
        }
      }
    } catch {
      map = undefined;
    }
    bundles.set(url, map);
    return map;
  };
  return (url, line) => {
    const map = read(url);
    if (!map || map.lines.length === 0) return undefined;
    let lo = 0;
    let hi = map.lines.length - 1;
    if (line < map.lines[0]!) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (map.lines[mid]! <= line) lo = mid;
      else hi = mid - 1;
    }
    return map.modules[lo];
  };
}
