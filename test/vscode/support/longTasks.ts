// Long tasks of one thread: the windows in which its event loop did not come round (from a
// heartbeat timer), read against a V8 CPU profile of the same time (Profiler.stop's `profile`).
// Each sample is attributed to whoever's code was running: the first frame from the leaf up that
// belongs to an extension (Engram, a built-in like git, the test harness) owns the sample, so VS
// Code's own code called by an extension (a tree refresh's serialisation) counts for that extension.

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Says which extension (or 'vscode', 'node') a script URL belongs to; undefined: look further up. */
export type UrlOwner = (url: string) => string | undefined;

/** Names a frame's source, e.g. the module inside a bundle; undefined: the URL itself. */
export type FrameSource = (url: string, line: number) => string | undefined;

export interface FrameTime {
  frame: string;
  owner: string;
  ms: number;
}

export interface LongTask {
  /** From the start of the profile. */
  startMs: number;
  ms: number;
  /** The thread's CPU time in the task, where the runtime tells (else undefined). */
  cpuMs?: number;
  /** The task's time by owner of the running code (GC and native time go to the code before it). */
  byOwner: Record<string, number>;
  /** The owner with the most time. */
  owner: string;
  /** Frames with the most self time. */
  top: FrameTime[];
  /** The time by the outermost named frames of the owner's code ("syncCodebaseMemories > deriveFile"). */
  calls: FrameTime[];
  /** The longest time between two samples: far above the interval, the thread was descheduled. */
  longestSampleGapMs: number;
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
/** Plumbing between a caller and the work (the engine's dispatch, a store's read/write wrappers). */
const PLUMBING = new Set(['', 'call', 'callAs', 'dispatch', 'execute', 'run', 'read', 'write']);
const CALL_DEPTH = 3;

/** One beat of the heartbeat: when (the profile's clock, microseconds), and the thread's CPU time then. */
export interface Beat {
  at: number;
  cpu?: number;
}

/** A stretch of the thread's time, on the profile's clock (microseconds), with its CPU time if known. */
export interface Window {
  start: number;
  end: number;
  cpuMs?: number;
}

/**
 * The windows in which the event loop did not come round: gaps of at least `thresholdMs` between
 * consecutive beats of a timer that fires every millisecond or so (`beats`, on the profile's
 * clock). This is what an event-loop-delay histogram measures, but with the when, so the profile
 * can say what ran. (The profile's "(idle)" samples cannot: work that yields with setImmediate
 * runs turn after turn without the thread ever idling.)
 */
export function blockedWindows(beats: readonly Beat[], thresholdMs = 20): Window[] {
  const windows: Window[] = [];
  for (let i = 1; i < beats.length; i++) {
    const [before, after] = [beats[i - 1]!, beats[i]!];
    if (after.at - before.at < thresholdMs * 1000) continue;
    const cpu = before.cpu !== undefined && after.cpu !== undefined ? after.cpu - before.cpu : undefined;
    windows.push({
      start: before.at,
      end: after.at,
      ...(cpu !== undefined ? { cpuMs: round(cpu / 1000) } : {}),
    });
  }
  return windows;
}

/** Each window as a task: how long, whose code ran in it, its top self-time frames. */
export function longTasks(
  profile: CpuProfile,
  windows: readonly Window[],
  ownerOf: UrlOwner,
  sourceOf: FrameSource,
  topFrames = 6,
): LongTask[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const ownerCache = new Map<number, string>();
  const sampleOwner = (id: number): string => {
    const cached = ownerCache.get(id);
    if (cached !== undefined) return cached;
    let fallback: string | undefined;
    let owner: string | undefined;
    for (let at: number | undefined = id; at !== undefined && owner === undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      const o = url ? ownerOf(url) : undefined;
      if (o === 'vscode' || o === 'node') fallback ??= o;
      else if (o !== undefined) owner = o;
    }
    const result = owner ?? fallback ?? 'unknown';
    ownerCache.set(id, result);
    return result;
  };

  const callCache = new Map<number, string>();
  /** The outermost CALL_DEPTH named frames of `owner`'s code in the sample's stack. */
  const callOf = (id: number, owner: string): string => {
    const cached = callCache.get(id);
    if (cached !== undefined) return cached;
    const names: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.url && ownerOf(frame.url) === owner && !PLUMBING.has(frame.functionName))
        names.unshift(frame.functionName);
    }
    const call = names.slice(0, CALL_DEPTH).join(' > ');
    callCache.set(id, call);
    return call;
  };

  // Sample i runs from its timestamp to the next one's.
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d));
  times.push(profile.endTime);

  const summarise = (window: Window): LongTask => {
    const byOwner: Record<string, number> = {};
    const self = new Map<string, FrameTime>();
    const calls = new Map<string, FrameTime>();
    let last = 'unknown';
    let gap = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      if (times[i]! < window.start || times[i]! >= window.end) continue;
      const node = byId.get(profile.samples[i]!)!;
      const span = (Math.min(times[i + 1]!, window.end) - times[i]!) / 1000;
      gap = Math.max(gap, span);
      const name = node.callFrame.functionName;
      // GC and native time go to the code that ran before them.
      const owner = SPECIAL.has(name) ? (name === '(idle)' ? 'idle' : last) : sampleOwner(node.id);
      if (name !== '(idle)') last = owner;
      byOwner[owner] = (byOwner[owner] ?? 0) + span;
      const { url, lineNumber } = node.callFrame;
      const where =
        SPECIAL.has(name) || !url
          ? ''
          : ` (${sourceOf(url, lineNumber) ?? url.split('/').slice(-2).join('/')}:${lineNumber + 1})`;
      const frame = `${name || '(anonymous)'}${where}`;
      const entry = self.get(frame) ?? { frame, owner: SPECIAL.has(name) ? `${owner}?` : owner, ms: 0 };
      entry.ms += span;
      self.set(frame, entry);
      const call = SPECIAL.has(name) ? name : callOf(node.id, owner) || name || '(anonymous)';
      const callEntry = calls.get(call) ?? { frame: call, owner, ms: 0 };
      callEntry.ms += span;
      calls.set(call, callEntry);
    }
    const owners = Object.entries(byOwner).sort((a, b) => b[1] - a[1]);
    return {
      startMs: round((window.start - profile.startTime) / 1000),
      ms: round((window.end - window.start) / 1000),
      ...(window.cpuMs !== undefined ? { cpuMs: window.cpuMs } : {}),
      byOwner: Object.fromEntries(owners.map(([o, v]) => [o, round(v)])),
      owner: owners.find(([o]) => o !== 'idle')?.[0] ?? 'idle',
      top: [...self.values()]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, topFrames)
        .map((f) => ({ ...f, ms: round(f.ms) })),
      calls: [...calls.values()]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, topFrames)
        .map((f) => ({ ...f, ms: round(f.ms) })),
      longestSampleGapMs: round(gap),
    };
  };
  return windows.map(summarise);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The time `owner` ran in each task, longest first. */
export function longestFor(tasks: readonly LongTask[], owner: string): number {
  return tasks.reduce((max, task) => Math.max(max, task.byOwner[owner] ?? 0), 0);
}

/** A Markdown table of the tasks: when, how long, whose time, the calls and self-time frames that took it. */
export function longTaskTable(tasks: readonly LongTask[]): string {
  const list = (frames: readonly FrameTime[]) =>
    frames.map((f) => `${f.ms} ${f.frame.replace(/\|/g, '\\|')} [${f.owner}]`).join('<br>');
  const rows = tasks.map(
    (task) =>
      `| ${task.startMs} | ${task.ms} | ${task.cpuMs ?? '?'} | ${Object.entries(task.byOwner)
        .map(([o, ms]) => `${o} ${ms}`)
        .join(', ')} | ${task.longestSampleGapMs} | ${list(task.calls)} | ${list(task.top)} |`,
  );
  return [
    '| at ms | task ms | thread CPU ms | ms by owner | longest sample gap ms | calls (ms, outermost frames, owner) | top self-time frames (ms, frame, owner) |',
    '|---:|---:|---:|---|---:|---|---|',
    ...rows,
  ].join('\n');
}
