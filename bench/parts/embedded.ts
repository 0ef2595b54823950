import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Row } from './common.ts';
import { type CliRun, runCli } from '../lib/processes.ts';
import { DIST_BIN, REPO_ROOT, progress } from '../lib/paths.ts';
import { buildDist } from './startup.ts';
import { LEAN_STACKS, type RunPhases, leanHarness, phaseRows, phasesOf, trafficOf } from './run-phases.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { RunTraffic } from '../lib/har-requests.ts';
import { fmt, generatedCases, median, seconds } from '../lib/stats.ts';

/** Wall time of the whole CLI process on the embedded reference (default profile), `runs` times; medians. */
export async function benchEmbedded(runs: number): Promise<Row[]> {
  const walls: number[] = [];
  const requests: number[] = [];
  const cases: number[] = [];
  // The same run from the compiled package (what npx starts once installed), interleaved with the clone's.
  buildDist();
  const compiled: CliRun[] = [];
  const properties: number[] = [];
  const exits: string[] = [];
  const cpus: number[] = [];
  const traffics: Array<{ run: CliRun; traffic: RunTraffic }> = [];
  for (let i = 1; i <= runs; i += 1) {
    const run = await runCli([], { timeoutMs: 10 * 60_000, viaNpm: true });
    walls.push(run.wallMs);
    exits.push(String(run.exitCode));
    if (run.cpuS !== undefined) cpus.push(run.cpuS);
    if (run.report) {
      requests.push(run.report.traffic.requestCount);
      const generated = generatedCases(run.report);
      cases.push(generated.cases);
      properties.push(generated.properties);
    }
    progress(`embedded: run ${i}/${runs}: ${seconds(run.wallMs)}, exit ${run.exitCode}, ${requests.at(-1) ?? '?'} requests`);
    // Its report directory is kept until its exchange log is read: the phases and the lean harness's requests.
    const keep = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
    const built = await runCli([], { timeoutMs: 10 * 60_000, bin: DIST_BIN, keepReportDir: keep });
    try {
      traffics.push({ run: built, traffic: trafficOf(keep) });
    } finally {
      rmSync(keep, { recursive: true, force: true });
    }
    compiled.push(built);
    progress(`embedded (compiled): run ${i}/${runs}: ${seconds(built.wallMs)}, exit ${built.exitCode}`);
  }
  const compiledCpus = compiled.flatMap((r) => (r.cpuS === undefined ? [] : [r.cpuS]));
  const fixed = await fixedCost(runs);
  const phases: RunPhases[] = traffics.map(({ run, traffic }) => phasesOf(run, traffic, fixed.cpuS));
  const lastTraffic = traffics.at(-1)?.traffic;
  const lean = lastTraffic ? leanHarness(lastTraffic) : undefined;
  // The suite's client in layers over the same requests: where the run's CPU a request goes.
  const layers = lastTraffic ? LEAN_STACKS.filter((stack) => stack !== 'undici').map((stack) => leanHarness(lastTraffic, stack)) : [];
  const floor = requestFloor();
  const workers = 2;
  const floorMs = fixed.wallMs + (median(requests) * floor.cpuMicrosPerRequest) / 1000 / workers;
  const caseNote = median(properties) > 0 ? 'sum of property numRuns + example tests' : 'no property data in the report: one per test';
  return [
    {
      measure: 'embedded `npm run conformance` wall time (profile thorough; npm, the launcher, dist/)',
      value: seconds(median(walls)),
      notes:
        `median of ${runs}: ${walls.map((w) => seconds(w)).join(', ')}; exit codes ${exits.join(',')}` +
        (cpus.length ? `; CPU user+sys median ${seconds(median(cpus) * 1000)} (wall is inflated on a loaded machine)` : ''),
    },
    {
      measure: 'embedded run from the compiled package (node dist/bin/cli.js, profile thorough)',
      value: seconds(median(compiled.map((r) => r.wallMs))),
      notes:
        `median of ${runs}, each right after a clone run above: ${compiled.map((r) => seconds(r.wallMs)).join(', ')}; exit codes ${compiled.map((r) => r.exitCode).join(',')}` +
        (compiledCpus.length ? `; CPU user+sys median ${seconds(median(compiledCpus) * 1000)}` : ''),
    },
    { measure: 'embedded run: generated cases', value: fmt(median(cases)), notes: caseNote },
    { measure: 'embedded run: requests (traffic.requestCount)', value: fmt(median(requests)), notes: `per run: ${requests.join(', ')}` },
    {
      measure: "a run's fixed cost: one test, one request (`node dist/bin/cli.js --only VER-001`)",
      value: seconds(fixed.wallMs),
      notes: `median of ${runs}: ${fixed.walls.map((w) => seconds(w)).join(', ')}${fixed.cpuS === undefined ? '' : `; CPU user+sys median ${seconds(fixed.cpuS * 1000)}`}`,
    },
    {
      measure: 'a bare request: undici on a worker thread, node:http on the main thread, one process',
      value: `${fmt(floor.cpuMicrosPerRequest)} µs CPU`,
      notes: `${fmt(floor.requests)} requests, nothing checked or recorded (bench/children/request-floor-child.ts)`,
    },
    {
      measure: 'embedded run: its floor (fixed cost + requests × bare request CPU over two workers)',
      value: seconds(floorMs),
      notes: 'what the thorough run would take if every request cost no more than a bare one and the two workers were evenly loaded',
    },
    ...(lean ? phaseRows(phases, lean, layers) : []),
  ];
}

/** The one-test run of the compiled package, `runs` times: the start-up and report every run pays. */
async function fixedCost(runs: number): Promise<{ wallMs: number; walls: number[]; cpuS: number | undefined }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 1; i <= runs; i += 1) {
    const run = await runCli(['--only', 'VER-001'], { timeoutMs: 5 * 60_000, bin: DIST_BIN });
    walls.push(run.wallMs);
    if (run.cpuS !== undefined) cpus.push(run.cpuS);
    progress(`embedded: one-test run ${i}/${runs}: ${seconds(run.wallMs)}, exit ${run.exitCode}`);
  }
  return { wallMs: median(walls), walls, cpuS: cpus.length ? median(cpus) : undefined };
}

function requestFloor(): { cpuMicrosPerRequest: number; requests: number } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench', 'children', 'request-floor-child.ts')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 5 * 60_000,
  });
  if (child.status !== 0) throw new Error(`request-floor-child failed: ${child.stderr}`);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as { cpuMicrosPerRequest: number; requests: number };
  progress(`embedded: a bare request costs ${fmt(result.cpuMicrosPerRequest)} µs of CPU`);
  return result;
}
