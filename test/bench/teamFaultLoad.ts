import { setTimeout as delay } from 'node:timers/promises';
import { rpc } from '../teamServer/teamServerProcess';
import { percentile, round } from './stats';

/**
 * The load with failures: `clients` concurrent clients, each alternating recall and
 * remember, spread over `urls`, while `faults` run (a server SIGKILLed and restarted, PostgreSQL
 * restarted). A client re-sends a call that was cut or answered 503/429 under the same request
 * id, to the next server, until it is answered, as the CLI's queue does; so every write ends
 * acknowledged, and the store must hold each acknowledged write exactly once (`checkWrites`).
 */
export interface FaultLoadResult {
  /** Per call, first send to the 200 answer, re-sends included (sorted, ms). */
  recall: number[];
  remember: number[];
  /** Sends re-sent: answered 503 (store unreachable, or the id in flight) or 429. */
  unavailable: number;
  /** Sends cut (connection refused or reset: the server was killed). */
  cut: number;
  /** Calls that failed for good: another status, or no answer within the give-up time. */
  failures: string[];
  /** Content of every write answered 200, with the id it was sent under. */
  acknowledged: Map<string, string>;
  /** What happened when, in seconds from the start. */
  timeline: string[];
}

export interface FaultLoadOptions {
  urls: string[];
  token: string;
  clients: number;
  seconds: number;
  query: (n: number) => string;
  /** Tag of every write, so the check lists them alone. */
  tag: string;
  /** Each runs once `at` seconds into the run, while the clients go on. */
  faults: Array<{ at: number; name: string; run: () => Promise<void> }>;
}

/** A call not answered after this long is a failure (the run is bounded). */
const GIVE_UP_MS = 60_000;
const RESEND_AFTER_MS = 50;

export async function faultLoad(options: FaultLoadOptions): Promise<FaultLoadResult> {
  const { urls, token, tag } = options;
  const result: FaultLoadResult = {
    recall: [],
    remember: [],
    unavailable: 0,
    cut: 0,
    failures: [],
    acknowledged: new Map(),
    timeline: [],
  };
  const start = Date.now();
  const at = () => round((Date.now() - start) / 1000, 1);
  const until = start + options.seconds * 1000;
  let next = 0;

  /** One call, re-sent under `id` until answered; true when answered 200. */
  const send = async (id: string, method: string, params: unknown, first: number): Promise<boolean> => {
    const started = process.hrtime.bigint();
    const giveUp = Date.now() + GIVE_UP_MS;
    for (let attempt = 0; ; attempt++) {
      const url = urls[(first + attempt) % urls.length]!;
      try {
        const answer = await rpc(url, token, { id, method, params });
        if (answer.status === 200) {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          (method === 'recall' ? result.recall : result.remember).push(ms);
          return true;
        }
        if (answer.status !== 503 && answer.status !== 429) {
          result.failures.push(`${id} ${method}: ${answer.status} ${JSON.stringify(answer.body)}`);
          return false;
        }
        result.unavailable++;
      } catch {
        result.cut++;
      }
      if (Date.now() > giveUp) {
        result.failures.push(`${id} ${method}: not answered in ${GIVE_UP_MS / 1000} s`);
        return false;
      }
      await delay(RESEND_AFTER_MS);
    }
  };

  const client = async (c: number): Promise<void> => {
    for (let n = 0; Date.now() < until; n++) {
      const call = next++;
      const id = `fault-${c}-${n}`;
      if (n % 2 === 0) {
        await send(id, 'recall', { query: options.query(call), k: 10 }, call);
        continue;
      }
      const content = `Fault load note ${call} from client ${c}: ${options.query(call)}`;
      if (await send(id, 'remember', { content, tags: [tag] }, call)) result.acknowledged.set(content, id);
    }
  };

  const faults = (async () => {
    for (const fault of [...options.faults].sort((a, b) => a.at - b.at)) {
      await delay(Math.max(0, start + fault.at * 1000 - Date.now()));
      result.timeline.push(`${at()} s: ${fault.name}`);
      await fault.run();
      result.timeline.push(`${at()} s: ${fault.name}: done`);
    }
  })();
  await Promise.all([faults, ...Array.from({ length: options.clients }, (_, c) => client(c))]);
  result.recall.sort((a, b) => a - b);
  result.remember.sort((a, b) => a - b);
  return result;
}

export interface WriteCheck {
  /** Acknowledged writes the store does not hold. */
  lost: string[];
  /** Writes held more than once (two rows, or one confirmed more than once). */
  duplicated: string[];
  /** Writes held that no client saw acknowledged (a call that gave up may leave one). */
  unacknowledged: string[];
}

/** Lists the run's writes (by tag) through `url` and compares them with the acknowledged ones. */
export async function checkWrites(
  url: string,
  token: string,
  tag: string,
  acknowledged: Map<string, string>,
): Promise<WriteCheck> {
  const items: Array<{ content: string; confirmations: number }> = [];
  for (let offset = 0; ; offset += 5000) {
    const answer = await rpc(url, token, {
      id: `fault-check-${Date.now()}-${offset}`,
      method: 'list',
      params: { tag, status: 'all', limit: 5000, offset },
    });
    if (answer.status !== 200) throw new Error(`list: ${answer.status} ${JSON.stringify(answer.body)}`);
    const page = (answer.body['result'] as { items: typeof items }).items;
    items.push(...page);
    if (page.length < 5000) break;
  }
  const held = new Map<string, number>();
  for (const item of items) held.set(item.content, (held.get(item.content) ?? 0) + item.confirmations);
  return {
    lost: [...acknowledged.keys()].filter((content) => !held.has(content)),
    duplicated: [...held].filter(([, times]) => times > 1).map(([content]) => content),
    unacknowledged: [...held.keys()].filter((content) => !acknowledged.has(content)),
  };
}

export function faultLines(name: string, load: FaultLoadResult, check: WriteCheck): string[] {
  const part = (times: number[]) =>
    `${times.length} calls, p50 ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms`;
  return [
    `${name.padEnd(40)} recall ${part(load.recall)}; remember ${part(load.remember)}`,
    `  re-sent: ${load.unavailable} answered 503/429, ${load.cut} cut; failed for good: ${load.failures.length}`,
    ...load.failures.slice(0, 5).map((f) => `    ${f}`),
    `  faults: ${load.timeline.join('; ')}`,
    `  acknowledged writes ${load.acknowledged.size}: lost ${check.lost.length}, duplicated ${check.duplicated.length}, held but not acknowledged ${check.unacknowledged.length}`,
    ...[...check.lost, ...check.duplicated, ...check.unacknowledged].slice(0, 5).map((c) => `    ${c}`),
  ];
}
