import { parseArgs } from 'node:util';
import type { ConformanceReport } from '../src/report/report-types.ts';
import { inParallel, runCli } from './lib/processes.ts';
import { progress } from './lib/paths.ts';
import { median, seconds } from './lib/stats.ts';

/**
 * `tsx bench/determinism.ts [--runs 20] [--seed 424242] [--parallel 2] [--profile p] [--variants a,b,c] [--only x]`:
 * the same seed must give the same cases and the same verdicts. Runs the embedded reference (plain and
 * three variants that need no suite flags) `runs` times each and compares, per target, every run's
 * fingerprint with the first: overall verdict, per-requirement verdicts, property seeds/numRuns/
 * counterexamples and the test list decide; the request count is reported, and may differ when a
 * rate-limit window turns over between two readings of a test that then measures again.
 */
const DEFAULT_VARIANTS = ['limit-clamped', 'newest-first', 'ids-above-2-53'];

interface Fingerprint {
  verdict: string;
  requirements: string;
  properties: string;
  tests: string;
  requests: number;
  /** Requests per test, to name the tests behind a different request count. */
  perTest: Map<string, number>;
}

function fingerprint(report: ConformanceReport): Fingerprint {
  const tests = new Map(report.requirements.flatMap((r) => r.tests).map((t) => [t.id, t]));
  const properties = report.requirements.flatMap((r) =>
    r.failures.filter((f) => f.property).map((f) => `${r.id}:${f.property?.seed}:${f.property?.path}:${f.property?.counterexample}`),
  );
  return {
    verdict: report.verdict.overall,
    requirements: report.requirements.map((r) => `${r.id}=${r.verdict}`).join(','),
    properties: [...[...tests.values()].filter((t) => t.property).map((t) => `${t.name}:${t.property?.seed}/${t.property?.numRuns}`), ...properties].join('\n'),
    tests: [...tests.values()]
      .map((t) => `${t.name}:${t.state}`)
      .sort()
      .join('\n'),
    requests: report.traffic.requestCount,
    perTest: new Map([...tests.values()].map((t) => [t.name, t.requests])),
  };
}

interface Outcome {
  target: string;
  wallMs: number;
  exitCode: number | null;
  print: Fingerprint | undefined;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '20' },
      seed: { type: 'string', default: '424242' },
      parallel: { type: 'string', default: '2' },
      profile: { type: 'string' },
      variants: { type: 'string', default: DEFAULT_VARIANTS.join(',') },
      only: { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  const targets = ['(plain)', ...(values.variants ?? '').split(',').filter(Boolean)];
  const jobs = targets.flatMap((target) => Array.from({ length: runs }, () => target));
  const started = performance.now();
  let done = 0;
  const outcomes = await inParallel(jobs, Number(values.parallel), async (target): Promise<Outcome> => {
    const args = ['--seed', values.seed ?? '', ...(values.profile ? ['--profile', values.profile] : []), ...(values.only ? ['--only', values.only] : [])];
    if (target !== '(plain)') args.push('--reference-variants', target);
    const run = await runCli(args, { timeoutMs: 10 * 60_000 });
    done += 1;
    progress(`determinism: ${done}/${jobs.length} ${target}: exit ${run.exitCode}, ${seconds(run.wallMs)}`);
    return { target, wallMs: run.wallMs, exitCode: run.exitCode, print: run.report ? fingerprint(run.report) : undefined };
  });
  const lines = [
    `seed ${values.seed}, profile ${values.profile ?? 'default (thorough)'}, ${runs} runs per target, ${values.parallel} in parallel, total ${seconds(performance.now() - started)}`,
    '',
    '| target | runs | same verdict | same requirement verdicts | same property data | same tests | same request count | verdict | median wall |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  let allSame = true;
  let requestCountsVaried = 0;
  for (const target of targets) {
    const mine = outcomes.filter((o) => o.target === target);
    const first = mine.find((o) => o.print)?.print;
    const same = (key: keyof Fingerprint) => mine.filter((o) => first && o.print?.[key] === first[key]).length;
    const counts = (['verdict', 'requirements', 'properties', 'tests', 'requests'] as const).map(same);
    // What --seed promises: the same cases and the same verdicts. The request count may differ when a
    // rate-limit window turns over between two readings and a test measures again (listed below).
    if (counts.slice(0, 4).some((c) => c !== mine.length)) allSame = false;
    requestCountsVaried += mine.length - (counts[4] ?? 0);
    lines.push(`| ${target} | ${mine.length} | ${counts.join(' | ')} | ${first?.verdict ?? 'no report'} | ${seconds(median(mine.map((o) => o.wallMs)))} |`);
    for (const o of mine) {
      if (!first || !o.print) continue;
      if (o.print.requirements !== first.requirements) lines.push(`  ${target}: verdicts differ: ${diff(first.requirements, o.print.requirements)}`);
      if (o.print.requests !== first.requests)
        lines.push(`  ${target}: requests ${first.requests} → ${o.print.requests}: ${requestDiff(first.perTest, o.print.perTest)}`);
    }
  }
  const requestNote = requestCountsVaried > 0 ? ` Request counts differed in ${requestCountsVaried} of ${outcomes.length} runs (listed above).` : '';
  lines.push(
    '',
    allSame
      ? `DETERMINISTIC: every run gave the same verdicts, cases and tests as the first run of its target.${requestNote}`
      : 'NOT DETERMINISTIC: see the rows above.',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  if (!allSame) process.exitCode = 1;
}

function requestDiff(a: Map<string, number>, b: Map<string, number>): string {
  return [...b]
    .filter(([name, n]) => a.get(name) !== n)
    .map(([name, n]) => `${name.slice(0, 48)} ${a.get(name)}→${n}`)
    .join('; ');
}

function diff(a: string, b: string): string {
  const left = new Set(a.split(','));
  return b
    .split(',')
    .filter((entry) => !left.has(entry))
    .join(', ');
}

await main();
