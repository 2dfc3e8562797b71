import { createHash } from 'node:crypto';
import type * as Pg from 'pg';
import type { Client, ClientConfig } from 'pg';
import type { Logger } from '../host';

/**
 * The newest journal transaction this process has heard of, pushed by PostgreSQL: every append
 * notifies a channel of its store (pgJournal.ts) in the writer's transaction, so the
 * notification is sent at COMMIT, and this process LISTENs on its own connection. A read then
 * catches its replica up to what it heard without asking `max(seq)` first.
 *
 * Hearing is not proof: a notification can still be on its way when a client that was answered
 * by another process sends its next call here. So the engine checks after the call (the
 * statistics' statement reports the journal's position in its own snapshot, pgLexicalSearch.ts)
 * and runs the call again, caught up, when it was behind (replicatedEngine.ts). While not
 * listening (not yet connected, or the connection lost), `heard` is undefined and reads ask.
 */
export class JournalPosition {
  private listener: Client | undefined;
  private connecting: Promise<void> | undefined;
  private newest = 0;
  private closed = false;

  constructor(
    private readonly config: ClientConfig,
    /** The store's channel (journalChannel). */
    readonly channel: string,
    private readonly logger: Logger,
    /** The journal's position now: asked once each time the listener (re)connects. */
    private readonly ask: () => Promise<number>,
  ) {}

  /** The newest transaction heard of, or undefined while not listening (then a read asks). */
  heard(): number | undefined {
    if (this.listener === undefined) {
      this.connecting ??= this.listen().finally(() => (this.connecting = undefined));
      return undefined;
    }
    return this.newest;
  }

  /** A position learnt otherwise (this process's own append, a query's answer). */
  saw(seq: number): void {
    if (seq > this.newest) this.newest = seq;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    // Loaded here, as pgJournal.ts loads it: the team server on PostgreSQL is the driver's one user.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Client } = require('pg') as typeof Pg;
    const client = new Client(this.config);
    const lost = (error?: Error): void => {
      if (this.listener !== client) return;
      this.listener = undefined;
      if (!this.closed && error) this.logger.warn(`PostgreSQL notifications lost: ${error.message}`);
      client.end().catch(() => undefined);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      const seq = Number(message.payload);
      if (Number.isFinite(seq)) this.saw(seq);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      // Appends made before LISTEN took effect were not heard: asked once, after it.
      this.saw(await this.ask());
      if (this.closed) {
        await client.end();
        return;
      }
      this.listener = client;
    } catch {
      // Not listening: reads keep asking, and the next one tries again.
      await client.end().catch(() => undefined);
    }
  }
}

/**
 * The channel a store's appends are announced on: notifications are per database and a database
 * can hold several stores (one schema each), so the name is the schema's, hashed to fit a channel
 * name's 63 bytes whatever the schema is called.
 */
export function journalChannel(schema: string): string {
  return `engram_journal_${createHash('sha256').update(schema).digest('hex').slice(0, 24)}`;
}
