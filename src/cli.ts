import { parseCliArgs, USAGE } from './cli/args.ts';
import { runConformance } from './cli/run.ts';
import { isHarnessError } from './errors.ts';

/** The command line: returns the exit code (0 conformant, 1 not conformant, 2 incomplete). */
export async function main(argv: readonly string[], log: (line: string) => void = (line) => console.log(line)): Promise<number> {
  let args;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    log(`animal-store-conformance: ${isHarnessError(error) ? error.message : String(error)}`);
    return 2;
  }
  if (args.help) {
    log(USAGE);
    return 0;
  }
  const outcome = await runConformance(args, log);
  return outcome.exitCode;
}
