/** Counting and timing what the simulated owners did, per operation. */

/** The operations the load test performs (one HTTP request each). */
export const OPERATIONS = ['create', 'list', 'read', 'save', 'export', 'revisions', 'revision'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The value at percentile `p` (nearest rank) of `values`, or NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface OperationLog {
  latencies: number[];
  /** Responses by status (`"200"`, `"409"`, …) and failures without one (`"timeout"`, `"network"`). */
  outcomes: Map<string, number>;
}

export interface OperationSummary {
  operation: Operation;
  requests: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Responses that were neither the expected success nor an intended 409, by status. */
  errors: Record<string, number>;
  conflicts: number;
}

/** Statuses each operation is expected to answer with (409 on a save is counted separately). */
const EXPECTED: Record<Operation, number> = {
  create: 201,
  list: 200,
  read: 200,
  save: 200,
  export: 200,
  revisions: 200,
  revision: 200,
};

/** What the run recorded; `summarize` turns it into the report's figures. */
export class Recorder {
  private readonly logs = new Map<Operation, OperationLog>();
  /** Requests per whole minute of the measured window (for the soak: does it stay level?). */
  readonly perMinute: { requests: number; errors: number; latencies: number[] }[] = [];
  /** Set when the measured window starts; requests before it (setup) are kept apart. */
  startedAt = 0;
  measuring = false;

  record(operation: Operation, outcome: string, ms: number, sentAt: number): void {
    let log = this.logs.get(operation);
    if (!log) this.logs.set(operation, (log = { latencies: [], outcomes: new Map() }));
    log.latencies.push(ms);
    log.outcomes.set(outcome, (log.outcomes.get(outcome) ?? 0) + 1);
    if (this.measuring && sentAt >= this.startedAt) {
      const minute = Math.floor((sentAt - this.startedAt) / 60_000);
      while (this.perMinute.length <= minute) this.perMinute.push({ requests: 0, errors: 0, latencies: [] });
      const bucket = this.perMinute[minute];
      bucket.requests += 1;
      bucket.latencies.push(ms);
      if (isError(operation, outcome)) bucket.errors += 1;
    }
  }

  /** Forgets everything recorded so far (the setup phase), keeping its counts apart. */
  resetForMeasurement(now: number): { requests: number; errors: number } {
    let requests = 0;
    let errors = 0;
    for (const [operation, log] of this.logs) {
      for (const [outcome, count] of log.outcomes) {
        requests += count;
        if (isError(operation, outcome)) errors += count;
      }
    }
    this.logs.clear();
    this.startedAt = now;
    this.measuring = true;
    return { requests, errors };
  }

  summarize(seconds: number): OperationSummary[] {
    return OPERATIONS.filter((op) => this.logs.has(op)).map((operation) => {
      const log = this.logs.get(operation)!;
      const sorted = [...log.latencies].sort((a, b) => a - b);
      const errors: Record<string, number> = {};
      let conflicts = 0;
      for (const [outcome, count] of log.outcomes) {
        if (operation === 'save' && outcome === '409') conflicts += count;
        else if (isError(operation, outcome)) errors[outcome] = count;
      }
      return {
        operation,
        requests: sorted.length,
        perSecond: sorted.length / seconds,
        p50: percentile(sorted, 50),
        p90: percentile(sorted, 90),
        p99: percentile(sorted, 99),
        max: sorted[sorted.length - 1] ?? Number.NaN,
        errors,
        conflicts,
      };
    });
  }

  /** Every latency of the measured window, sorted (for the overall percentiles). */
  allLatencies(): number[] {
    return [...this.logs.values()].flatMap((l) => l.latencies).sort((a, b) => a - b);
  }
}

/**
 * An outcome other than the operation's success status, a save's intended 409, or a revision
 * folded into a later autosave entry by another tab's save (`folded`, a 404 that says so).
 */
export function isError(operation: Operation, outcome: string): boolean {
  if (outcome === String(EXPECTED[operation])) return false;
  return !((operation === 'save' && outcome === '409') || (operation === 'revision' && outcome === 'folded'));
}
