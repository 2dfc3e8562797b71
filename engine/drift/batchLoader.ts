/**
 * Collects the keys asked for while a batch of claims is being verified and answers them with one
 * load: the verifiers read like one claim at a time, and git still runs once per batch.
 */
export class BatchLoader<V> {
  private readonly answers = new Map<string, Promise<V>>();
  private queue: Array<{ key: string; resolve: (value: V) => void; reject: (error: unknown) => void }> = [];

  constructor(
    private readonly load: (keys: string[]) => Promise<Map<string, V>>,
    private readonly absent: V,
  ) {}

  get(key: string): Promise<V> {
    let answer = this.answers.get(key);
    if (!answer) {
      answer = new Promise<V>((resolve, reject) => {
        if (this.queue.length === 0) setImmediate(() => void this.flush());
        this.queue.push({ key, resolve, reject });
      });
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async flush(): Promise<void> {
    const queue = this.queue;
    this.queue = [];
    const keys = queue.map((q) => q.key);
    try {
      // Git killed or unable to start on a loaded machine: asked once more before failing.
      const found = await this.load(keys).catch(() => this.load(keys));
      for (const q of queue) q.resolve(found.get(q.key) ?? this.absent);
    } catch (error) {
      // A failure is no answer: the claims waiting see it, a later question asks again.
      for (const q of queue) {
        this.answers.delete(q.key);
        q.reject(error);
      }
    }
  }
}
