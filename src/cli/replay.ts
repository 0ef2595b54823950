import { readFileSync } from 'node:fs';
import type { ReplayTest } from '../config/load-config.ts';
import { HarnessError } from '../errors.ts';
import { isSelected } from '../config/requirement-selection.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { shellWords } from '../report/command-words.ts';

// Moved to the report, whose HTML names the reference's start line too; kept here for existing callers.
export { referenceStartLine, shellWords } from '../report/command-words.ts';

export interface ReplayPlan {
  /** The report's own command line (target, profile, seed, options), then the user's arguments. */
  argv: string[];
  tests: ReplayTest[];
}

// Options of the recorded command that the user gives again (the keys), or that replay decides itself.
const DROPPED_WITH_VALUE = new Set([
  '--api-key',
  '--exhaust-key',
  '--plan-key',
  '--only',
  '--shard',
  '--run-nonce',
  '--baseline',
  '--expected-deviations',
  '--report-dir',
  '--max-duration',
]);
const DROPPED_FLAGS = new Set(['--update-baseline', '--require-complete', '--fail-fast']);

/**
 * `--replay <report.json> [--only <ids>]`: the failing tests of that report (of the requirements named by
 * --only, else every failing one) with the report's target, profile, seed and options. Returns undefined
 * when argv has no --replay.
 */
export function planReplay(argv: readonly string[]): ReplayPlan | undefined {
  const at = argv.findIndex((arg) => arg === '--replay' || arg.startsWith('--replay='));
  if (at === -1) return undefined;
  const inline = argv[at]?.startsWith('--replay=') ? argv[at]?.slice('--replay='.length) : undefined;
  const file = inline ?? argv[at + 1];
  if (!file || file.startsWith('--')) throw new HarnessError('ERR_CONFIG', '--replay needs the conformance.json of the run to replay');
  const rest = [...argv.slice(0, at), ...argv.slice(at + (inline === undefined ? 2 : 1))];
  const report = readReport(file);
  const only = onlyOf(rest);
  const tests = failingTests(report, only);
  if (tests.length === 0) {
    const scope = only.length > 0 ? ` of ${only.join(', ')}` : '';
    throw new HarnessError('ERR_CONFIG', `--replay: ${file} holds no failing test${scope} to replay`);
  }
  return { argv: [...recordedArgs(report.run.command), ...rest], tests };
}

function readReport(file: string): ConformanceReport {
  let report: Partial<ConformanceReport>;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConformanceReport>;
  } catch (cause) {
    throw new HarnessError('ERR_CONFIG', `--replay: cannot read ${file} as a conformance report`, { cause });
  }
  if (typeof report.run?.command !== 'string' || !Array.isArray(report.requirements)) {
    throw new HarnessError('ERR_CONFIG', `--replay: ${file} is not a conformance.json (no run.command or requirements)`);
  }
  return report as ConformanceReport;
}

function onlyOf(argv: readonly string[]): string[] {
  const values: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--only' && argv[i + 1] !== undefined) values.push(argv[i + 1] as string);
    if (arg.startsWith('--only=')) values.push(arg.slice('--only='.length));
  });
  return values.flatMap((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** Tests that failed, and tests whose exchanges an always-on check found a violation in. */
export function failingTests(report: ConformanceReport, only: readonly string[]): ReplayTest[] {
  const tests = new Map<string, ReplayTest>();
  for (const requirement of report.requirements.filter((r) => isSelected(only, r))) {
    for (const failure of requirement.failures) {
      const test = report.requirements.flatMap((r) => r.tests).find((t) => t.id === failure.testId);
      if (!test || tests.has(test.id)) continue;
      const path = failure.property?.path;
      tests.set(test.id, { id: test.id, name: test.name, requirementId: requirement.id, ...(path ? { path } : {}) });
    }
  }
  return [...tests.values()];
}

/** The recorded command's arguments, minus the program, the keys and what replay decides. */
export function recordedArgs(command: string): string[] {
  const words = shellWords(command);
  const start = words.findIndex((word) => word.startsWith('--'));
  const out: string[] = [];
  for (let i = start === -1 ? words.length : start; i < words.length; i++) {
    const word = words[i] as string;
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    if (DROPPED_FLAGS.has(name)) continue;
    if (DROPPED_WITH_VALUE.has(name)) {
      if (!word.includes('=')) i++;
      continue;
    }
    out.push(word);
  }
  return out;
}
