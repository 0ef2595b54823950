import { infoRequest, parseCliArgs, reportDirOf, USAGE } from './args.ts';
import { COMPARE_USAGE, runCompare } from './compare.ts';
import { suiteVersion } from './paths.ts';
import { planReplay } from './replay.ts';
import { runKeygen, runVerify } from './verify.ts';
import { runConformance, writeRejectedRun } from './run.ts';
import { HarnessError, isHarnessError } from '../errors.ts';

/** The command line: returns the exit code (0 conformant, 1 not conformant, 2 incomplete). */
export async function main(argv: readonly string[], log: (line: string) => void = (line) => console.log(line)): Promise<number> {
  if (argv[0] === 'compare') return runCompare(argv.slice(1), log);
  if (argv[0] === 'verify') return runVerify(argv.slice(1), log);
  if (argv[0] === 'keygen') return runKeygen(argv.slice(1), log);
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
    log(`animal-store-conformance: ${problem.message}`);
    // A report still says what was wrong, so CI never uploads a stale one from an earlier run.
    writeRejectedRun(problem, reportDirOf(argv), log);
    return 2;
  }
  if (args.help) {
    log(USAGE);
    return 0;
  }
  try {
    const outcome = await runConformance(args, log);
    return outcome.exitCode;
  } catch (error) {
    // The suite itself is broken (its spec or catalog does not load): never exit 1, "not conformant".
    const problem = isHarnessError(error) ? error : new HarnessError('ERR_INTERNAL', String((error as Error)?.message ?? error));
    log(`animal-store-conformance: ${problem.code}: ${problem.message}`);
    return 2;
  }
}

/** `help [command]`: the main usage, or a sub-command's own (verify and keygen answer their --help). */
function help(command: string | undefined, log: (line: string) => void): Promise<number> | number {
  if (command === 'compare') {
    log(COMPARE_USAGE);
    return 0;
  }
  if (command === 'verify' || command === 'keygen') return main([command, '--help'], log);
  if (command !== undefined) {
    log(`animal-store-conformance: no command "${command}"; the commands are compare, verify and keygen (see --help)`);
    return 2;
  }
  log(USAGE);
  return 0;
}
