import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Row } from './common.ts';
import { type RunTraffic, readRunTraffic } from '../lib/har-requests.ts';
import type { CliRun } from '../lib/processes.ts';
import { REPO_ROOT, progress } from '../lib/paths.ts';
import { fmt, median } from '../lib/stats.ts';

/** One thorough run of the compiled package, split into its phases by its own exchange log. */
export interface RunPhases {
  launchToFirstMs: number;
  requestPhaseMs: number;
  lastToExitMs: number;
  requests: number;
  /** The run's CPU less the fixed cost's (a one-test run), over its requests. */
  cpuMicrosPerRequest: number | undefined;
  /** CPU over wall in the request phase: how many of the cores the run kept busy. */
  coresUsed: number | undefined;
}

export function phasesOf(run: CliRun, traffic: RunTraffic, fixedCpuS: number | undefined): RunPhases {
  const requestCpuS = run.cpuS !== undefined && fixedCpuS !== undefined ? run.cpuS - fixedCpuS : undefined;
  const requestPhaseMs = traffic.lastMs - traffic.firstMs;
  return {
    launchToFirstMs: traffic.firstMs - run.startedAtMs,
    requestPhaseMs,
    lastToExitMs: run.startedAtMs + run.wallMs - traffic.lastMs,
    requests: traffic.requests.length,
    cpuMicrosPerRequest: requestCpuS === undefined ? undefined : (requestCpuS * 1e6) / traffic.requests.length,
    coresUsed: requestCpuS === undefined ? undefined : (requestCpuS * 1000) / requestPhaseMs,
  };
}

/** The run's exchange log, read from the report directory it was kept in. */
export function trafficOf(reportDir: string): RunTraffic {
  return readRunTraffic(join(reportDir, 'exchanges.har'));
}

/** Which client the lean harness sends with (bench/children/lean-harness-child.ts): undici alone, or the suite's client in layers. */
export const LEAN_STACKS = ['undici', 'client', 'client+redact', 'client+redact+checks'] as const;
export type LeanStack = (typeof LEAN_STACKS)[number];

export interface LeanResult {
  stack: LeanStack;
  cpuMicrosPerRequest: number;
  requests: number;
  wallMs: number;
}

/** The lean harness (bench/children/lean-harness-child.ts) replaying `traffic`'s requests with `stack`: its CPU a request. */
export function leanHarness(traffic: RunTraffic, stack: LeanStack = 'undici'): LeanResult {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lean-'));
  try {
    const path = join(dir, 'requests.json');
    writeFileSync(path, JSON.stringify(traffic.requests));
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench', 'children', 'lean-harness-child.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCH_LEAN_REQUESTS: path, BENCH_LEAN_STACK: stack },
      encoding: 'utf8',
      timeout: 5 * 60_000,
    });
    if (child.status !== 0) throw new Error(`lean-harness-child failed: ${child.stderr}`);
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Omit<LeanResult, 'stack'>;
    progress(`embedded: the lean harness (${stack}) costs ${fmt(result.cpuMicrosPerRequest)} µs of CPU a request`);
    return { stack, ...result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The rows of issue 50's figures: phases of the thorough run, CPU a request against the lean harness, cores
 * used; then the layers between the two (the suite's client alone, with redaction, with the checks), each
 * against the one below it, and what is left for the suites, vitest and the run's isolates.
 */
export function phaseRows(phases: readonly RunPhases[], lean: LeanResult, layers: readonly LeanResult[] = []): Row[] {
  const of = (pick: (p: RunPhases) => number | undefined) => phases.flatMap((p) => (pick(p) === undefined ? [] : [pick(p) as number]));
  const list = (values: number[], show: (v: number) => string) => `median of ${values.length}: ${values.map(show).join(', ')}`;
  const cpu = of((p) => p.cpuMicrosPerRequest);
  const cores = of((p) => p.coresUsed);
  // Hundredths: the goals these phases are held to (launch → first request ≤ 0.6 s) sit within a tenth.
  const ms = (v: number) => `${fmt(v / 1000, 2)} s`;
  return [
    {
      measure: 'thorough run: launch → first request',
      value: ms(median(of((p) => p.launchToFirstMs))),
      notes: list(
        of((p) => p.launchToFirstMs),
        ms,
      ),
    },
    {
      measure: 'thorough run: request phase (first request → last response)',
      value: ms(median(of((p) => p.requestPhaseMs))),
      notes: list(
        of((p) => p.requestPhaseMs),
        ms,
      ),
    },
    {
      measure: 'thorough run: last response → exit',
      value: ms(median(of((p) => p.lastToExitMs))),
      notes: list(
        of((p) => p.lastToExitMs),
        ms,
      ),
    },
    {
      measure: 'thorough run: CPU a request (run CPU − one-test run CPU, over its requests)',
      value: cpu.length ? `${fmt(median(cpu))} µs` : 'n/a',
      notes: cpu.length ? list(cpu, (v) => `${fmt(v)} µs`) : '/usr/bin/time is not installed',
    },
    {
      measure: "lean harness: the run's own requests replayed with undici + the contract's ajv check",
      value: `${fmt(lean.cpuMicrosPerRequest)} µs`,
      notes: `${fmt(lean.requests)} requests on two worker threads, the reference on the main thread (bench/children/lean-harness-child.ts)`,
    },
    {
      measure: 'CPU a request, run vs lean harness',
      value: cpu.length ? `${fmt(median(cpu) / lean.cpuMicrosPerRequest, 2)}×` : 'n/a',
      notes: 'issue 50 asks ≤ 2×',
    },
    ...layerRows(lean, layers, cpu.length ? median(cpu) : undefined),
    {
      measure: 'cores used in the request phase (its CPU / its wall)',
      value: cores.length ? fmt(median(cores), 2) : 'n/a',
      notes: cores.length ? `${list(cores, (v) => fmt(v, 2))}; of ${2} workers` : '/usr/bin/time is not installed',
    },
  ];
}

const LAYER_NOTES: Record<LeanStack, string> = {
  undici: '',
  client: "the suite's client (createClient: pacing, the JSON reader, recording, curl lines, heads in curl's shape), nothing redacted or checked",
  'client+redact': "that client redacting what it records, as a run's workers do",
  'client+redact+checks': "that client with the always-on checks too: a run's requests as its workers send them",
};

/** Each layer of the lean harness against the one below it, and the run against the last: where a request's CPU goes. */
function layerRows(lean: LeanResult, layers: readonly LeanResult[], runMicros: number | undefined): Row[] {
  const rows: Row[] = [];
  let below = lean;
  for (const layer of layers) {
    rows.push({
      measure: `lean harness, ${layer.stack}: CPU a request`,
      value: `${fmt(layer.cpuMicrosPerRequest)} µs`,
      notes: `${LAYER_NOTES[layer.stack]}; ${signed(layer.cpuMicrosPerRequest - below.cpuMicrosPerRequest)} µs over ${below.stack}`,
    });
    below = layer;
  }
  if (layers.length > 0 && runMicros !== undefined) {
    rows.push({
      measure: "CPU a request left for the suites, vitest and the run's isolates",
      value: `${fmt(runMicros - below.cpuMicrosPerRequest)} µs`,
      notes: `the thorough run's CPU a request less the lean harness's ${below.stack}: fast-check, the rules, the evidence, vitest's messages, each worker's warm-up, the report`,
    });
  }
  return rows;
}

const signed = (value: number) => `${value >= 0 ? '+' : '−'}${fmt(Math.abs(value))}`;
