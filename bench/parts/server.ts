import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY_HEADERS, NEW_PET_BODY, type Row } from './common.ts';
import { type ChildServer, forkChild, record } from '../lib/children.ts';
import { type LoadResult, type LoadSpec, measure } from '../lib/load.ts';
import { progress } from '../lib/paths.ts';
import { fmt, median } from '../lib/stats.ts';

export interface ServerBenchOptions {
  rounds: number;
  connections: number;
  warmupS: number;
  durationS: number;
}

interface Endpoint {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** What the bare server does besides answering the recorded bytes: the least this operation must do. */
  floor: string;
}

const ENDPOINTS: readonly Endpoint[] = [
  { label: 'GET /v1/pets?limit=20 (20 pets)', method: 'GET', path: '/pets?limit=20', floor: 'bare answers the recorded bytes' },
  {
    label: 'POST /v1/pets (valid NewPet)',
    method: 'POST',
    path: '/pets',
    body: NEW_PET_BODY,
    floor: 'bare reads the whole body, JSON.parses it and keeps the value, then answers the recorded bytes',
  },
];

/**
 * Requests/s of the reference against a bare node:http server replaying the reference's own bytes
 * after doing the least the operation must (bare-child.ts), each in its own child process, alternated
 * bare, ref, bare, ref… for `rounds` rounds; medians.
 */
export async function benchServer(options: ServerBenchOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-server-'));
  try {
    const repliesPath = join(dir, 'replies.json');
    writeFileSync(repliesPath, JSON.stringify(await recordReplies()));
    const rows: Row[] = [];
    for (const endpoint of ENDPOINTS) {
      const bare: ServerResult[] = [];
      const ref: ServerResult[] = [];
      for (let round = 1; round <= options.rounds; round += 1) {
        bare.push(await run('bare-child', { BENCH_REPLIES: repliesPath }, endpoint, options));
        ref.push(await run('reference-child', { BENCH_SEED_PETS: '20' }, endpoint, options));
        progress(
          `server: ${endpoint.method} round ${round}: bare ${fmt(bare.at(-1)?.rps ?? 0)} req/s, ${fmt(bare.at(-1)?.cpuMicrosPerRequest ?? 0, 1)} µs CPU/req; ` +
            `ref ${fmt(ref.at(-1)?.rps ?? 0)} req/s, ${fmt(ref.at(-1)?.cpuMicrosPerRequest ?? 0, 1)} µs CPU/req`,
        );
      }
      rows.push(describe(endpoint, bare, ref, options));
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function describe(endpoint: Endpoint, bare: ServerResult[], ref: ServerResult[], options: ServerBenchOptions): Row {
  const bareRps = median(bare.map((r) => r.rps));
  const refRps = median(ref.map((r) => r.rps));
  const bareCpu = median(bare.map((r) => r.cpuMicrosPerRequest));
  const refCpu = median(ref.map((r) => r.cpuMicrosPerRequest));
  const bad = [...bare, ...ref].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  return {
    measure: `${endpoint.label}: req/s ref vs bare node:http`,
    value: `ref ${fmt(refRps)} / bare ${fmt(bareRps)} = ${fmt(refRps / bareRps, 2)}`,
    notes:
      `${endpoint.floor}; median of ${options.rounds} alternating ${options.durationS} s runs, ${options.connections} conns; ` +
      `ranges ref ${range(ref)}, bare ${range(bare)}; ` +
      `ref p50/p99 ${fmt(median(ref.map((r) => r.p50Ms)), 1)}/${fmt(median(ref.map((r) => r.p99Ms)), 1)} ms; ` +
      `server CPU per request (median) ref ${fmt(refCpu, 1)} µs / bare ${fmt(bareCpu, 1)} µs, bare/ref = ${fmt(bareCpu / refCpu, 2)}` +
      (bad > 0 ? `; ${bad} non-2xx or errors!` : ''),
  };
}

function range(results: readonly LoadResult[]): string {
  const rps = results.map((r) => r.rps);
  return `${fmt(Math.min(...rps))}–${fmt(Math.max(...rps))}`;
}

/** A load run with the server's own CPU time per request: steadier than req/s when other work shares the cores. */
interface ServerResult extends LoadResult {
  cpuMicrosPerRequest: number;
}

interface CpuReply {
  user: number;
  system: number;
}

async function run(
  name: 'bare-child' | 'reference-child',
  env: Record<string, string>,
  endpoint: Endpoint,
  options: ServerBenchOptions,
): Promise<ServerResult> {
  const child = await forkChild(name, env);
  try {
    const load = spec(child, endpoint);
    if (options.warmupS > 0) await measure(load, { ...options, warmupS: 0, durationS: options.warmupS });
    const before = await child.ask<CpuReply>('cpu');
    const result = await measure(load, { ...options, warmupS: 0 });
    const after = await child.ask<CpuReply>('cpu');
    const micros = after.user + after.system - before.user - before.system;
    return { ...result, cpuMicrosPerRequest: micros / Math.max(1, result.total) };
  } finally {
    await child.stop();
  }
}

function spec(child: ChildServer, endpoint: Endpoint): LoadSpec {
  return {
    url: `${child.url}${endpoint.path}`,
    method: endpoint.method,
    headers: endpoint.body ? { ...BENCH_KEY_HEADERS, 'content-type': 'application/json' } : BENCH_KEY_HEADERS,
    ...(endpoint.body ? { body: endpoint.body } : {}),
  };
}

/** The reference's own answers, replayed byte for byte by the bare server. */
async function recordReplies() {
  const child = await forkChild('reference-child', { BENCH_SEED_PETS: '20' });
  try {
    const replies: Record<string, Awaited<ReturnType<typeof record>>> = {};
    for (const endpoint of ENDPOINTS) {
      const { url, method, headers, body } = spec(child, endpoint);
      const reply = await record(url, method, headers, body);
      if (reply.status >= 300) throw new Error(`reference answered ${reply.status} to ${method} ${url}: ${reply.body}`);
      replies[method] = reply;
    }
    return replies;
  } finally {
    await child.stop();
  }
}
