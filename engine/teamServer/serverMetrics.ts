/** Latency buckets in seconds: a recall answers in milliseconds, a batch write may take seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The team server's counters in Prometheus' text format (version 0.0.4): requests by method and
 * status, one latency histogram, and the number of memories (read when scraped). Labels come from
 * a closed set (the served methods, `mcp`, `healthz`, `other`), so a caller cannot grow the series.
 */
export class ServerMetrics {
  private readonly requests = new Map<string, number>();
  private readonly bucketCounts = BUCKETS.map(() => 0);
  private count = 0;
  private sum = 0;

  observe(method: string, status: number, seconds: number): void {
    const key = `method="${method}",status="${status}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    this.count++;
    this.sum += seconds;
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) this.bucketCounts[i]!++;
    });
  }

  render(memories: Record<string, number>): string {
    const lines = [
      '# HELP engram_http_requests_total Requests served, by method and HTTP status.',
      '# TYPE engram_http_requests_total counter',
      ...[...this.requests].map(([labels, n]) => `engram_http_requests_total{${labels}} ${n}`),
      '# HELP engram_http_request_duration_seconds Time from a request to its answer.',
      '# TYPE engram_http_request_duration_seconds histogram',
      ...BUCKETS.map(
        (le, i) => `engram_http_request_duration_seconds_bucket{le="${le}"} ${this.bucketCounts[i]}`,
      ),
      `engram_http_request_duration_seconds_bucket{le="+Inf"} ${this.count}`,
      `engram_http_request_duration_seconds_sum ${this.sum}`,
      `engram_http_request_duration_seconds_count ${this.count}`,
      '# HELP engram_memories Memories in the store, by status.',
      '# TYPE engram_memories gauge',
      ...Object.entries(memories).map(([status, n]) => `engram_memories{status="${status}"} ${n}`),
    ];
    return `${lines.join('\n')}\n`;
  }
}
