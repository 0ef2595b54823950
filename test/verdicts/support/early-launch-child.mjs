// A run of the compiled package's runConformance with an early thread started as the CLI starts it
// (or, with `other-launch`, one started with an environment vitest does not ask for, or with
// `broken-entry`, one whose entry does not load): prints how many
// early threads vitest took, and the run's exit code and verdict, as JSON (early-workers.test.ts).
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const [dist, reportDir, mode] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(`${dist}/${path}`).href);
const { EarlyWorkers, expectedLaunch, preloadUrls, startEarlyWorkers } = await load('harness/early-workers.js');
const { runConformance } = await load('cli/run.js');
const { parseCliArgs } = await load('cli/args.js');
function started() {
  // As the CLI starts it (src/cli/main.ts).
  if (mode === 'same') return startEarlyWorkers();
  const launch = expectedLaunch();
  if (mode === 'other-launch') launch.env = { ...launch.env, EARLY_LAUNCH_OTHER: '1' };
  // An entry that does not load: the early thread fails before vitest asks for a worker.
  if (mode === 'broken-entry') launch.entry = `${launch.entry}.missing.js`;
  return new EarlyWorkers(launch, preloadUrls());
}
const early = started();
const outcome = await runConformance(
  parseCliArgs(['--only', 'SCH-001', '--report-dir', reportDir]),
  () => {},
  () => {},
  early,
);
process.stdout.write(`${JSON.stringify({ adopted: early.adopted, exitCode: outcome.exitCode, verdict: outcome.report.verdict.overall })}\n`);
process.exit(0);
