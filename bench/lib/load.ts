import { createRequire } from 'node:module';

/** The slice of autocannon's programmatic API the bench uses (the package ships no types). */
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeout?: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}

const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  rps: number;
  total: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** A warm-up of `warmupS` seconds (discarded), then a measured run of `durationS` seconds. */
export async function measure(spec: LoadSpec, options: { connections: number; warmupS: number; durationS: number }): Promise<LoadResult> {
  const base = { ...spec, connections: options.connections, timeout: 10 };
  if (options.warmupS > 0) await autocannon({ ...base, duration: options.warmupS });
  const result = await autocannon({ ...base, duration: options.durationS });
  return {
    rps: result.requests.total / options.durationS,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Exactly `amount` requests (bounded in count; a 10-minute timeout bounds the time). */
export async function send(spec: LoadSpec, amount: number, connections: number): Promise<LoadResult> {
  const started = performance.now();
  const result = await Promise.race([
    autocannon({ ...spec, connections, amount, timeout: 10 }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('load run exceeded 10 minutes')), 600_000).unref()),
  ]);
  const seconds = (performance.now() - started) / 1000;
  return {
    rps: result.requests.total / seconds,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
