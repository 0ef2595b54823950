import { infoRequest, parseCliArgs, reportDirOf, USAGE } from './args.ts';
import { suiteVersion } from './paths.ts';
import { planReplay, referenceStartLine } from './replay.ts';
import { HarnessError, isHarnessError } from '../errors.ts';
import { consoleSafe, shownText } from '../text/console-text.ts';
import { bypassDerivedCache } from '../text/derived-cache.ts';

/**
 * The command line: returns the exit code (0 conformant, 1 not conformant, 2 incomplete). Everything it
 * logs passes the console sink (consoleSafe): no control character a target sent reaches the terminal
 * raw, and no line it shaped starts a workflow command.
 */
export async function main(argv: readonly string[], out?: (line: string) => void, errors?: (line: string) => void): Promise<number> {
  // Results go to stdout; usage and configuration errors, warnings and progress to stderr. A caller that
  // passes one sink gets everything there.
  const log = out ?? ((line: string) => console.log(consoleSafe(line)));
  const err = errors ?? out ?? ((line: string) => console.error(consoleSafe(line)));
  // Each sub-command is loaded when asked for: --help and --version load nothing but what they print.
  if (argv[0] === 'compare') return (await import('./compare.ts')).runCompare(argv.slice(1), log);
  // What checks a certificate reads nothing the suite identity does not cover (the derived cache).
  if (argv[0] === 'verify' || argv[0] === 'rejudge' || argv[0] === 'matrix') {
    const restore = bypassDerivedCache();
    try {
      if (argv[0] === 'verify') return (await import('./verify.ts')).runVerify(argv.slice(1), log);
      if (argv[0] === 'rejudge') return (await import('./rejudge-command.ts')).runRejudge(argv.slice(1), log);
      return await (await import('../matrix/index.ts')).runMatrix(argv.slice(1), log);
    } finally {
      restore();
    }
  }
  if (argv[0] === 'keygen') return (await import('./keygen.ts')).runKeygen(argv.slice(1), log);
  if (argv[0] === 'reference') return serveReference(argv.slice(1));
  // Asking for help or the version is never a usage error, and writes no report.
  if (argv[0] === 'help') return help(argv[1]?.startsWith('-') ? undefined : argv[1], log);
  const info = infoRequest(argv);
  if (info === 'help') return help(undefined, log);
  if (info === 'version') {
    log(`animal-store-conformance ${suiteVersion()}`);
    return 0;
  }
  let args;
  try {
    // --replay: the recorded run's own arguments come first, the user's (key, --only, --report-dir) after.
    const replay = planReplay(argv);
    args = parseCliArgs(replay?.argv ?? argv);
    if (replay) args.flags.replay = replay.tests;
  } catch (error) {
    const problem = isHarnessError(error) ? error : new HarnessError('ERR_CONFIG', String(error));
    err(`animal-store-conformance: ${shownText(problem.message)}`);
    // A report still says what was wrong, so CI never uploads a stale one from an earlier run.
    const { writeRejectedRun } = await import('./run.ts');
    writeRejectedRun(problem, reportDirOf(argv), err);
    return 2;
  }
  if (args.help) {
    log(USAGE);
    return 0;
  }
  try {
    const early = args.mergeReports === undefined ? await startEarlyThread() : undefined;
    // Loaded only for a run: vitest and the reporters are most of the start-up, and --help needs none of it.
    const { runConformance } = await import('./run.ts');
    const outcome = await runConformance(args, log, err, early);
    const { run, requirements } = outcome.report;
    const start = requirements.some((r) => r.failures.some((f) => f.curl)) ? referenceStartLine(run) : undefined;
    // The embedded reference closed with the run: say how to bring the same one back for the curl lines.
    if (start) log(`The curl lines above need the embedded reference again (API_KEY set to any key): ${start}`);
    return outcome.exitCode;
  } catch (error) {
    // The suite itself is broken (its spec or catalog does not load): never exit 1, "not conformant".
    const problem = isHarnessError(error) ? error : new HarnessError('ERR_INTERNAL', String((error as Error)?.message ?? error));
    err(`animal-store-conformance: ${problem.code}: ${shownText(problem.message)}`);
    return 2;
  }
}

/**
 * A worker thread that loads the suites on the idle core while this one loads vitest (early-workers.ts),
 * started with the V8 budget of the run's other workers (v8-budget.ts): an isolate takes V8's flags as
 * they are when it starts.
 */
async function startEarlyThread() {
  (await import('./v8-budget.ts')).budgetV8ForShortRun();
  return (await import('../harness/early-workers.ts')).startEarlyWorkers();
}

/** `help [command]`: the main usage, or a sub-command's own (verify and keygen answer their --help). */
function help(command: string | undefined, log: (line: string) => void): Promise<number> | number {
  if (command === 'compare') return import('./compare.ts').then(({ COMPARE_USAGE }) => (log(COMPARE_USAGE), 0));
  if (command === 'verify' || command === 'keygen' || command === 'matrix' || command === 'rejudge') return main([command, '--help'], log);
  if (command === 'faults' || command === 'variants') return listReferenceOptions(command, log);
  if (command === 'reference') return serveReference(['--help']);
  if (command !== undefined) {
    log(
      `animal-store-conformance: no help on "${command}"; there is help on compare, verify, rejudge, keygen, matrix, reference, faults and variants (see --help)`,
    );
    return 2;
  }
  log(USAGE);
  return 0;
}

/** `help faults` / `help variants`: every name --reference-faults or --reference-variants takes, one per line. */
async function listReferenceOptions(kind: 'faults' | 'variants', log: (line: string) => void): Promise<number> {
  const { EVERY_FAULT } = await import('../reference/faults/all-faults.ts');
  const { VARIANTS } = await import('../reference/variants.ts');
  const entries: readonly { name: string; description: string }[] = kind === 'faults' ? EVERY_FAULT : VARIANTS;
  const width = Math.max(...entries.map((entry) => entry.name.length));
  log(kind === 'faults' ? 'Faults for --reference-faults <names> (comma list):' : 'Valid variants for --reference-variants <names> (comma list):');
  for (const entry of entries) log(`  ${entry.name.padEnd(width)}  ${entry.description}`);
  return 0;
}

/** `reference`: the standalone reference server; it serves until a signal ends the process. */
async function serveReference(argv: readonly string[]): Promise<number> {
  const { runStandalone } = await import('../reference/standalone.ts');
  const code = await runStandalone(argv, process.env);
  return code ?? new Promise<number>(() => {});
}
