/**
 * What a sync of the replica of the team scope costs (engine/teamClient/teamReplica.ts): a whole
 * copy into a new store against an incremental one after a few changes, at `memories` memories,
 * against a real `engram serve --team` process on loopback. Client CPU (this process,
 * process.cpuUsage), server CPU (/proc, 0.1 s steps) and wall time per sync.
 * `node --import tsx test/bench/teamReplicaBench.ts [memories] [changes] [--rounds N] [--base FILE]`
 * after a build. `--base FILE`: a module exporting another `syncReplica(target, directory, open,
 * now)` (e.g. main's teamReplica.ts copied beside this tree's), measured on the same server.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replicaDatabase, replicaDirectory, syncReplica } from '../../engine/teamClient/teamReplica';
import { tempDir } from '../support/temp';
import { loadedServer, memoryText, openReplica, takeOption } from './replicaBenchStore';
import type { Sync } from './replicaBenchStore';
import { processUsage } from './processUsage';
import { machine, median, ms, round } from './stats';

const args = process.argv.slice(2);
const option = (name: string) => takeOption(args, name);
const ROUNDS = Number(option('--rounds') ?? 3);
const BASE = option('--base');
const MEMORIES = Number(args[0] ?? 10_000);
/** Changes between two incremental syncs: edits, pins and unpins in turn. */
const CHANGES = Number(args[1] ?? 100);

const text = memoryText;

interface Cost {
  wallMs: number;
  clientCpuMs: number;
  serverCpuS: number;
}

async function measured(serverPid: number, run: () => Promise<unknown>): Promise<Cost> {
  const server = processUsage(serverPid).cpuSeconds;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const outcome = (await run()) as { kind?: string; reason?: string };
  if (outcome?.kind === 'failed') throw new Error(`sync failed: ${outcome.reason}`);
  const used = process.cpuUsage(cpu);
  return {
    wallMs: ms(start),
    clientCpuMs: (used.user + used.system) / 1000,
    serverCpuS: processUsage(serverPid).cpuSeconds - server,
  };
}

function row(name: string, costs: Cost[]): string {
  const of = (pick: (c: Cost) => number) => round(median(costs.map(pick)), 1);
  return `${name.padEnd(48)} wall ${of((c) => c.wallMs)} ms, client CPU ${of((c) => c.clientCpuMs)} ms, server CPU ${of((c) => c.serverCpuS)} s (medians of ${costs.length})`;
}

async function main(): Promise<void> {
  const dir = tempDir('engram-replica-bench-', { afterTest: false });
  console.log(
    `${machine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} before`,
  );
  const { server, target, send } = await loadedServer(dir, MEMORIES, 'replica-bench');
  const pid = server.child.pid!;
  let wholes = 0;
  try {
    const ids = ((await send('list', { limit: 1000 })) as { items: Array<{ id: string }> }).items.map(
      (m) => m.id,
    );
    const change = async (round: number) => {
      for (let i = 0; i < CHANGES; i++) {
        const id = ids[(round * CHANGES + i) % ids.length]!;
        if (i % 3 === 0)
          await send('edit', { id, changes: { content: `${text(i)}, revised in round ${round}` } });
        else if (i % 3 === 1) await send('pin', { id });
        else await send('unpin', { id });
      }
    };
    const whole = (sync: Sync) => async () => {
      const costs: Cost[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const replica = replicaDirectory(path.join(dir, `whole-${++wholes}-${r}`, 'memory.db'));
        costs.push(await measured(pid, () => sync(target, replica, openReplica, Date.now())));
        rmSync(path.dirname(replica), { recursive: true, force: true });
      }
      return costs;
    };
    console.log(row(`whole copy of ${MEMORIES}`, await whole(syncReplica)()));
    const base = BASE ? ((await import(path.resolve(BASE))) as { syncReplica: Sync }).syncReplica : undefined;
    if (base) console.log(row(`whole copy of ${MEMORIES}, --base`, await whole(base)()));

    const replica = replicaDirectory(path.join(dir, 'incremental', 'memory.db'));
    await syncReplica(target, replica, openReplica, Date.now());
    const current: Cost[] = [];
    /** What every sync that changes something pays before and after its work. */
    const openClose: Cost[] = [];
    const incremental: Cost[] = [];
    const baseAfterChanges: Cost[] = [];
    const baseReplica = replicaDirectory(path.join(dir, 'base', 'memory.db'));
    if (base) await base(target, baseReplica, openReplica, Date.now());
    for (let r = 0; r < ROUNDS; r++) {
      current.push(await measured(pid, () => syncReplica(target, replica, openReplica, Date.now())));
      openClose.push(await measured(pid, async () => (await openReplica(replicaDatabase(replica))).close()));
      await change(r);
      incremental.push(await measured(pid, () => syncReplica(target, replica, openReplica, Date.now())));
      if (base)
        baseAfterChanges.push(await measured(pid, () => base(target, baseReplica, openReplica, Date.now())));
    }
    console.log(row('nothing changed', current));
    console.log(row('open and close the replica, no sync', openClose));
    console.log(row(`${CHANGES} changes (edit, pin, unpin), incremental`, incremental));
    if (base) console.log(row(`${CHANGES} changes, --base`, baseAfterChanges));
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} after`,
    );
  } finally {
    await server.stop();
  }
}

void main();
