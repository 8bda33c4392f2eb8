/**
 * In-page measurement: sequential round trips and N-in-flight throughput, with the contenders
 * interleaved round by round, in a new order each round, so that drift on a shared machine (another
 * job starting, a GC, CPU frequency) lands on all of them alike. Only performance.now() is read;
 * nothing outside the page observes the measured loop.
 */

/** One thing to time: `call` performs one complete round trip. */
export interface Contender {
  name: string;
  call: () => Promise<unknown>;
}

export interface LatencyStats {
  samples: number;
  medianUs: number;
  p99Us: number;
  meanUs: number;
  /** The median of each round, in order: ratios per round show how much the machine's noise moves them. */
  roundMediansUs: number[];
  /** The mean of each round, in order (finer than medians for calls of a few microseconds). */
  roundMeansUs: number[];
}

export interface ThroughputStats {
  calls: number;
  inFlight: number;
  callsPerSecond: number;
  /** Calls per second of each round, in order. */
  roundCallsPerSecond: number[];
}

export interface Plan {
  /** Untimed calls per contender before anything is recorded (JIT, connection pool, pooled servers). */
  warmup: number;
  /** Rounds; each round runs every contender once, in a shuffled order. */
  rounds: number;
  /** Sequential calls per contender per round. */
  sequentialPerRound: number;
  /** Calls per contender per round in the throughput phase. */
  burstPerRound: number;
  inFlight: number;
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

const sortedCopy = (values: number[]) => [...values].sort((a, b) => a - b);

export function latencyStats(rounds: number[][]): LatencyStats {
  const sorted = sortedCopy(rounds.flat());
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    samples: sorted.length,
    medianUs: Math.round(percentile(sorted, 50) * 1000),
    p99Us: Math.round(percentile(sorted, 99) * 1000),
    meanUs: Math.round(mean * 1000),
    roundMediansUs: rounds.map((round) => Math.round(percentile(sortedCopy(round), 50) * 1000)),
    roundMeansUs: rounds.map(
      (round) => Math.round((round.reduce((sum, value) => sum + value, 0) / round.length) * 10_000) / 10,
    ),
  };
}

/**
 * The contenders in a fresh order for each round (a seeded shuffle, so that runs are repeatable).
 * Rotating one fixed order would keep every contender behind the same predecessor, and one that
 * leaves garbage behind would hand its collection pauses to the same neighbour every round.
 */
function shuffled<T>(items: readonly T[], round: number): T[] {
  let seed = (round + 1) * 0x9e3779b9;
  const random = () => {
    // mulberry32: tiny, good enough to vary an order.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

async function sequential(contender: Contender, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await contender.call();
    into.push(performance.now() - start);
  }
}

/** Keeps `inFlight` calls running until `count` have completed; returns the elapsed milliseconds. */
async function burst(contender: Contender, count: number, inFlight: number): Promise<number> {
  let started = 0;
  const worker = async (): Promise<void> => {
    while (started < count) {
      started++;
      await contender.call();
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return performance.now() - start;
}

/** Runs the plan over every contender and returns per-contender latency and throughput. */
export async function measure(
  contenders: readonly Contender[],
  plan: Plan,
  progress: (what: string) => void = () => undefined,
): Promise<Record<string, { latency: LatencyStats; throughput: ThroughputStats }>> {
  for (const contender of contenders) {
    progress(`warm-up ${contender.name}`);
    await sequential(contender, plan.warmup, []);
    await burst(contender, plan.warmup, plan.inFlight);
  }
  const samples = new Map(contenders.map((c) => [c.name, [] as number[][]]));
  const elapsed = new Map(contenders.map((c) => [c.name, [] as number[]]));
  for (let round = 0; round < plan.rounds; round++) {
    progress(`round ${round + 1}/${plan.rounds}`);
    for (const contender of shuffled(contenders, 2 * round)) {
      const into: number[] = [];
      await sequential(contender, plan.sequentialPerRound, into);
      samples.get(contender.name)!.push(into);
    }
    for (const contender of shuffled(contenders, 2 * round + 1))
      elapsed.get(contender.name)!.push(await burst(contender, plan.burstPerRound, plan.inFlight));
  }
  const calls = plan.rounds * plan.burstPerRound;
  const perSecond = (count: number, ms: number) => Math.round(count / (ms / 1000));
  return Object.fromEntries(
    contenders.map((c) => {
      const times = elapsed.get(c.name)!;
      const total = times.reduce((sum, ms) => sum + ms, 0);
      return [
        c.name,
        {
          latency: latencyStats(samples.get(c.name)!),
          throughput: {
            calls,
            inFlight: plan.inFlight,
            callsPerSecond: perSecond(calls, total),
            roundCallsPerSecond: times.map((ms) => perSecond(plan.burstPerRound, ms)),
          },
        },
      ];
    }),
  );
}

/** Sends a result object to the bench server; resolves with the next page of the plan, if any. */
export async function report(step: number, kind: string, data: unknown): Promise<string | null> {
  const response = await fetch('/bench/report', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ step, kind, data }),
  });
  const { next } = (await response.json()) as { next: string | null };
  return next;
}

/** Reports, then moves on to the next page of the plan (a fresh document). */
export async function reportAndContinue(step: number, kind: string, data: unknown): Promise<void> {
  const next = await report(step, kind, data);
  if (next) location.replace(next);
}

/** Reports a failure so the runner stops at once instead of waiting for its timeout. */
export function reportFailure(step: number, error: unknown): Promise<string | null> {
  const message =
    error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  return report(step, 'error', { message });
}
