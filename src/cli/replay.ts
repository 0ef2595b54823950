import { readFileSync } from 'node:fs';
import type { ReplayTest } from '../config.ts';
import { HarnessError } from '../errors.ts';
import type { ConformanceReport, RequirementResult } from '../report/model.ts';

export interface ReplayPlan {
  /** The report's own command line (target, profile, seed, options), then the user's arguments. */
  argv: string[];
  tests: ReplayTest[];
}

// Options of the recorded command that the user gives again (the keys), or that replay decides itself.
const DROPPED_WITH_VALUE = new Set([
  '--api-key',
  '--exhaust-key',
  '--only',
  '--shard',
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
  const selected = (r: RequirementResult) => only.length === 0 || only.includes(r.id) || only.includes(r.area);
  const tests = new Map<string, ReplayTest>();
  for (const requirement of report.requirements.filter(selected)) {
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

/** Splits a command line as a POSIX shell would for the forms reproduceCommand writes: '…', "…", bare words. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const char = command[i] as string;
    if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) throw new HarnessError('ERR_CONFIG', '--replay: the recorded command has an unclosed quote');
      word += command.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (char === '"') {
      const end = command.indexOf('"', i + 1);
      if (end === -1) throw new HarnessError('ERR_CONFIG', '--replay: the recorded command has an unclosed quote');
      word += command.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The embedded reference of a run closes with it, so its curl lines point at a closed port: this line
 * starts the same reference (its faults and variants) on the same port, with $API_KEY accepted, so the
 * curl lines work as printed. Undefined for a remote target.
 */
export function referenceStartLine(run: { target: { url: string; embedded: boolean }; command: string }): string | undefined {
  if (!run.target.embedded) return undefined;
  let port: string;
  try {
    port = new URL(run.target.url).port;
  } catch {
    return undefined;
  }
  const words = shellWords(run.command);
  const valueOf = (flag: string) => {
    const at = words.findIndex((w) => w === flag || w.startsWith(`${flag}=`));
    if (at === -1) return undefined;
    return words[at]?.includes('=') ? words[at]?.slice(flag.length + 1) : words[at + 1];
  };
  const faults = valueOf('--reference-faults');
  const variants = valueOf('--reference-variants');
  return [
    `PORT=${port} REFERENCE_API_KEYS="$API_KEY:enterprise:1000000000:1000000000" npx animal-store-conformance reference`,
    ...(faults ? [`--faults ${faults}`] : []),
    ...(variants ? [`--variants ${variants}`] : []),
  ].join(' ');
}
