import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fsyncDirectory, writeFileAtomic } from '../store/fsync';
import { sendToTeam } from './teamConnection';
import type { TeamOutcome, TeamTarget } from './teamConnection';

/** A write waiting for the team server, as its file holds it. */
export interface QueuedWrite {
  /** The request id it is sent under, every time: the server applies it once. */
  id: string;
  method: string;
  params: unknown;
  queuedAt: string;
}

export interface FlushReport {
  /** The writes the server answered, in order, with its results. */
  sent: Array<{ write: QueuedWrite; result: unknown }>;
  /**
   * Refused for good (bad input, a memory gone, a token without the scope): moved to rejected/
   * with the reason. An unknown token (401) stops the flush instead: every write waits for a fixed one.
   */
  rejected: Array<{ write: QueuedWrite; code: string; message: string }>;
  /** Still waiting (the server is unreachable, or refused the token: fix it and flush again). */
  waiting: number;
  /** Why the flush stopped early, when it did; `unauthorized` when the server refused the token. */
  stoppedBy?: { reason: string; unauthorized: boolean };
}

/** Where a database's writes for the team server wait: beside it. */
export function queueDirectory(dbPath: string): string {
  return path.join(path.dirname(dbPath), 'team-queue');
}

/**
 * Writes for the team server, kept on disk until it answers: one file per write, written whole
 * and fsynced before the caller is told it is queued, named so they sort in the order they were
 * made, removed only after the server answered. A process killed between the answer and the
 * removal sends that write again under the same request id, and the server answers it from its
 * first result: each write is applied exactly once, and none is lost.
 */
export class WriteQueue {
  constructor(private readonly directory: string) {}

  enqueue(method: string, params: unknown, now: number): QueuedWrite {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const write: QueuedWrite = { id: randomUUID(), method, params, queuedAt: new Date(now).toISOString() };
    // Time first so the files sort in order; the id makes two writes in one millisecond distinct.
    const name = `${String(now).padStart(15, '0')}-${process.hrtime.bigint()}-${write.id}.json`;
    writeFileAtomic(path.join(this.directory, name), Buffer.from(JSON.stringify(write)));
    return write;
  }

  /** The queued files, oldest first (temp files of an interrupted enqueue are not writes). */
  pending(): string[] {
    if (!existsSync(this.directory)) return [];
    return readdirSync(this.directory)
      .filter((name) => name.endsWith('.json'))
      .sort();
  }

  /** Sends the queued writes in order until one cannot be sent now; see FlushReport. */
  async flush(target: TeamTarget): Promise<FlushReport> {
    const report: FlushReport = { sent: [], rejected: [], waiting: 0 };
    const files = this.pending();
    for (const [index, name] of files.entries()) {
      const file = path.join(this.directory, name);
      let write: QueuedWrite;
      try {
        write = JSON.parse(readFileSync(file, 'utf8')) as QueuedWrite;
      } catch {
        // Gone: another process flushed it meanwhile.
        if (!existsSync(file)) continue;
        throw new Error(`${file} is not a queued write`);
      }
      const outcome = await this.send(target, write);
      if (outcome.kind === 'answered') {
        this.remove(file);
        report.sent.push({ write, result: outcome.result });
        continue;
      }
      if (outcome.kind === 'refused' && outcome.status !== 401) {
        this.reject(file, name, outcome.message);
        report.rejected.push({ write, code: outcome.code, message: outcome.message });
        continue;
      }
      report.waiting = files.length - index;
      report.stoppedBy =
        outcome.kind === 'refused'
          ? { reason: outcome.message, unauthorized: true }
          : { reason: outcome.reason, unauthorized: false };
      break;
    }
    return report;
  }

  /** One write, waiting out a rate limit (429 with Retry-After) a few times before giving up for now. */
  private async send(target: TeamTarget, write: QueuedWrite): Promise<TeamOutcome> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await sendToTeam(target, write.id, write.method, write.params);
      const wait = outcome.kind === 'unreachable' ? outcome.retryAfter : undefined;
      if (wait === undefined || wait > MAX_RETRY_AFTER_S || attempt >= MAX_RATE_LIMITED_ATTEMPTS)
        return outcome;
      await delay(wait * 1000);
    }
  }

  private remove(file: string): void {
    rmSync(file, { force: true });
    fsyncDirectory(this.directory);
  }

  private reject(file: string, name: string, message: string): void {
    const rejected = path.join(this.directory, 'rejected');
    mkdirSync(rejected, { recursive: true, mode: 0o700 });
    writeFileAtomic(path.join(rejected, `${name}.reason`), Buffer.from(`${message}\n`));
    renameSync(file, path.join(rejected, name));
    fsyncDirectory(this.directory);
  }
}

/** A server asking for a longer pause than this leaves the rest of the queue to the next flush. */
const MAX_RETRY_AFTER_S = 10;
const MAX_RATE_LIMITED_ATTEMPTS = 5;
