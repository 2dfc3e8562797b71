import { rpc } from '../teamServer/teamServerProcess';
import { percentile, round } from './stats';

/** What a load run saw: per-call times by method (sorted), and the calls that failed. */
export interface LoadResult {
  recall: number[];
  remember: number[];
  errors: number;
  /** Writes answered 200: each must be in the store once afterwards. */
  acknowledged: number;
}

/**
 * `clients` concurrent clients for `seconds`, each alternating recall and remember, spread over
 * `urls` in turn (the load: 20 clients mixing both against two server processes). A
 * failed call counts as an error and is not retried: this measures, the tests check recovery.
 */
export async function mixedLoad(
  urls: string[],
  token: string,
  clients: number,
  seconds: number,
  query: (n: number) => string,
): Promise<LoadResult> {
  const result: LoadResult = { recall: [], remember: [], errors: 0, acknowledged: 0 };
  const until = Date.now() + seconds * 1000;
  let next = 0;
  const client = async (c: number): Promise<void> => {
    for (let n = 0; Date.now() < until; n++) {
      const call = next++;
      const method = n % 2 === 0 ? 'recall' : 'remember';
      const params =
        method === 'recall'
          ? { query: query(call), k: 10 }
          : { content: `Load note ${call} from client ${c}: ${query(call)}` };
      const started = process.hrtime.bigint();
      try {
        const answer = await rpc(urls[call % urls.length]!, token, { id: `load-${c}-${n}`, method, params });
        if (answer.status !== 200) result.errors++;
        else {
          result[method].push(Number(process.hrtime.bigint() - started) / 1e6);
          if (method === 'remember') result.acknowledged++;
        }
      } catch {
        result.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  result.recall.sort((a, b) => a - b);
  result.remember.sort((a, b) => a - b);
  return result;
}

export function loadLine(name: string, load: LoadResult): string {
  const part = (times: number[]) =>
    `${times.length} calls, p50 ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms`;
  return `${name.padEnd(40)} recall ${part(load.recall)}; remember ${part(load.remember)}; errors ${load.errors}`;
}
