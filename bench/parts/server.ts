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
}

const ENDPOINTS: readonly Endpoint[] = [
  { label: 'GET /v1/pets?limit=20 (20 pets)', method: 'GET', path: '/pets?limit=20' },
  { label: 'POST /v1/pets (valid NewPet)', method: 'POST', path: '/pets', body: NEW_PET_BODY },
];

/**
 * Requests/s of the reference against a bare node:http server replaying the reference's own bytes,
 * each in its own child process, alternated bare, ref, bare, ref… for `rounds` rounds; medians.
 */
export async function benchServer(options: ServerBenchOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-server-'));
  try {
    const repliesPath = join(dir, 'replies.json');
    writeFileSync(repliesPath, JSON.stringify(await recordReplies()));
    const rows: Row[] = [];
    for (const endpoint of ENDPOINTS) {
      const bare: LoadResult[] = [];
      const ref: LoadResult[] = [];
      for (let round = 1; round <= options.rounds; round += 1) {
        bare.push(await run('bare-child', { BENCH_REPLIES: repliesPath }, endpoint, options));
        ref.push(await run('reference-child', { BENCH_SEED_PETS: '20' }, endpoint, options));
        progress(`server: ${endpoint.method} round ${round}: bare ${fmt(bare.at(-1)?.rps ?? 0)} req/s, ref ${fmt(ref.at(-1)?.rps ?? 0)} req/s`);
      }
      rows.push(describe(endpoint, bare, ref, options));
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function describe(endpoint: Endpoint, bare: LoadResult[], ref: LoadResult[], options: ServerBenchOptions): Row {
  const bareRps = median(bare.map((r) => r.rps));
  const refRps = median(ref.map((r) => r.rps));
  const bad = [...bare, ...ref].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  return {
    measure: `${endpoint.label}: req/s ref vs bare node:http`,
    value: `ref ${fmt(refRps)} / bare ${fmt(bareRps)} = ${fmt(refRps / bareRps, 2)}`,
    notes:
      `median of ${options.rounds} alternating ${options.durationS} s runs, ${options.connections} conns; ` +
      `ranges ref ${range(ref)}, bare ${range(bare)}; ` +
      `ref p50/p99 ${fmt(median(ref.map((r) => r.p50Ms)), 1)}/${fmt(median(ref.map((r) => r.p99Ms)), 1)} ms` +
      (bad > 0 ? `; ${bad} non-2xx or errors!` : ''),
  };
}

function range(results: readonly LoadResult[]): string {
  const rps = results.map((r) => r.rps);
  return `${fmt(Math.min(...rps))}–${fmt(Math.max(...rps))}`;
}

async function run(name: 'bare-child' | 'reference-child', env: Record<string, string>, endpoint: Endpoint, options: ServerBenchOptions): Promise<LoadResult> {
  const child = await forkChild(name, env);
  try {
    return await measure(spec(child, endpoint), options);
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
