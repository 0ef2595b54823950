import { parseCliArgs, reportDirOf, USAGE } from './args.ts';
import { runCompare } from './compare.ts';
import { runMatrix } from '../matrix/index.ts';
import { planReplay } from './replay.ts';
import { runKeygen, runVerify } from './verify.ts';
import { runConformance, writeRejectedRun } from './run.ts';
import { HarnessError, isHarnessError } from '../errors.ts';
import { consoleSafe, shownText } from '../console-text.ts';

/**
 * The command line: returns the exit code (0 conformant, 1 not conformant, 2 incomplete). Everything it
 * logs passes the console sink (consoleSafe): no control character a target sent reaches the terminal
 * raw, and no line it shaped starts a workflow command.
 */
export async function main(argv: readonly string[], log: (line: string) => void = (line) => console.log(consoleSafe(line))): Promise<number> {
  if (argv[0] === 'compare') return runCompare(argv.slice(1), log);
  if (argv[0] === 'verify') return runVerify(argv.slice(1), log);
  if (argv[0] === 'keygen') return runKeygen(argv.slice(1), log);
  if (argv[0] === 'matrix') return runMatrix(argv.slice(1), log);
  let args;
  try {
    // --replay: the recorded run's own arguments come first, the user's (key, --only, --report-dir) after.
    const replay = planReplay(argv);
    args = parseCliArgs(replay?.argv ?? argv);
    if (replay) args.flags.replay = replay.tests;
  } catch (error) {
    const problem = isHarnessError(error) ? error : new HarnessError('ERR_CONFIG', String(error));
    log(`animal-store-conformance: ${shownText(problem.message)}`);
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
    log(`animal-store-conformance: ${problem.code}: ${shownText(problem.message)}`);
    return 2;
  }
}
