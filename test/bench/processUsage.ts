import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Clock ticks per second of /proc/<pid>/stat's CPU times (100 on Linux almost always). */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export interface ProcessUsage {
  /** Resident memory of the process and its descendants (MB). */
  rssMb: number;
  /** User + system CPU time of the process and its descendants so far (s). */
  cpuSeconds: number;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited meanwhile
  }
}

/** The pid and every live descendant (a bridge may run its engine or workers in children). */
function family(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const parent = Number(statFields(Number(name))?.[1]);
    if (!Number.isNaN(parent)) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next);
    stack.push(...(children.get(next) ?? []));
  }
  return out;
}

/**
 * User + system CPU of a process tree so far, in milliseconds, unrounded (clock ticks: 10 ms
 * steps): the difference across a phase of many calls is that phase's CPU. Children that exited
 * (a PostgreSQL backend or autovacuum worker) count through their parent's cutime and cstime,
 * or the tree's total would drop when one exits.
 */
export function processCpuMs(pid: number): number {
  let ticks = 0;
  for (const member of family(pid)) {
    const fields = statFields(member);
    // utime(11) stime(12) cutime(13) cstime(14): the last two, children already waited for.
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (ticks / TICKS) * 1000;
}

/** RSS and CPU time of a server process tree, from /proc (Linux only). */
export function processUsage(pid: number): ProcessUsage {
  let rssKb = 0;
  let ticks = 0;
  for (const member of family(pid)) {
    const fields = statFields(member);
    if (!fields) continue;
    // After the name: state(0) ppid(1) ... utime(11) stime(12) ... rss pages(21).
    ticks += Number(fields[11]) + Number(fields[12]);
    const status = readFileSync(`/proc/${member}/status`, 'utf8');
    rssKb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return { rssMb: Math.round(rssKb / 102.4) / 10, cpuSeconds: Math.round((ticks / TICKS) * 10) / 10 };
}
