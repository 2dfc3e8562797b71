/**
 * Facts about other processes on this machine that the lock needs: is a pid alive, and is it still
 * the same process that wrote a lock (pids are reused, most visibly in containers where every
 * restart is pid 1 again).
 */
import { readFileSync } from 'node:fs';

interface ProcStat {
  /** Single-letter state: R, S, D, Z (zombie), X (dead), ... */
  state: string;
  /** Field 22 of /proc/<pid>/stat: start time in clock ticks since boot. */
  startTicks: number;
}

/**
 * Reads /proc/<pid>/stat. Returns null when the process does not exist or /proc is unavailable.
 * The command name (field 2) may contain spaces and parentheses, so fields are counted from the
 * last ')'.
 */
function readProcStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  // After ')' come fields 3, 4, ...: field N sits at index N - 3.
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = fields[0];
  const startTicks = Number(fields[22 - 3]);
  if (state === undefined || !Number.isSafeInteger(startTicks)) return null;
  return { state, startTicks };
}

let procUsable: boolean | undefined;

/** Whether /proc/<pid>/stat can be trusted here (Linux with /proc mounted and readable). */
function hasProc(): boolean {
  if (procUsable === undefined) {
    procUsable = process.platform === 'linux' && readProcStat(process.pid) !== null;
  }
  return procUsable;
}

/**
 * The start time of `pid` as recorded by the kernel, or null where it cannot be read (not Linux,
 * or no such process). Two processes with the same pid have different start times.
 */
export function processStartTime(pid: number): number | null {
  if (!hasProc()) return null;
  return readProcStat(pid)?.startTicks ?? null;
}

/**
 * Whether `pid` names a running process and, when `startedAt` is known (Linux), whether it is the
 * same process that recorded that start time. A zombie (killed but not yet reaped by its parent)
 * counts as dead: it holds nothing any more, and `kill(pid, 0)` would wrongly call it alive.
 */
export function isProcessAlive(pid: number, startedAt: number | null): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (hasProc()) {
    const stat = readProcStat(pid);
    if (stat === null) return false;
    if (stat.state === 'Z' || stat.state === 'X') return false;
    return startedAt === null || stat.startTicks === startedAt;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; it is alive all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
