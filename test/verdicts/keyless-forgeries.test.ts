import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runRejudge } from '../../src/cli/rejudge-command.ts';
import { type Har, type HarEntry, chainEntries } from '../../src/report/har.ts';
import type { ConformanceReport, TestSummary } from '../../src/report/report-types.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Issue 48's five forgeries that needed no key: a genuinely failing run of a faulty reference, its
 * failed tests edited into passes and its log edited as the issue's forger edited a shard's blob, then
 * re-judged. The log is chained again after each edit, as the merge writes it from the edited blobs,
 * so what refuses each is what the log can prove, not the chain. Shard runs (`--shard 1/1`) keep every
 * exchange whole, as the shards of a certified merge do.
 */

const RUN_TIMEOUT_MS = 180_000;

interface Rejudged {
  same: boolean;
  rejudged: string;
  differences: string[];
  refusedTests: string[];
}

function rejudged(dir: string): Rejudged {
  const lines: string[] = [];
  runRejudge([dir, '--format', 'json'], (line) => lines.push(line));
  return JSON.parse(lines.join('\n')) as Rejudged;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** A faulty reference's run, its report and log, and a way to write both back as the forger left them. */
async function faultyRun(context: Parameters<typeof runCliInTest>[0], args: string[], profile = 'standard') {
  const run = await runCliInTest(context, ['--shard', '1/1', '--profile', profile, '--seed', '3', ...args], {
    timeoutMs: RUN_TIMEOUT_MS,
    label: 'keyless-',
  });
  const reportPath = join(run.reportDir, 'conformance.json');
  const harPath = join(run.reportDir, 'exchanges.har');
  const report = readJson<ConformanceReport>(reportPath);
  const har = readJson<Har>(harPath);
  expect(rejudged(run.reportDir).differences).toEqual([]);
  const write = () => {
    // The chain the merge writes anew over the edited exchanges.
    chainEntries(har.log.entries);
    writeFileSync(harPath, JSON.stringify(har));
    writeFileSync(reportPath, JSON.stringify(report));
    return rejudged(run.reportDir);
  };
  return { report, har, write };
}

function failedTest(report: ConformanceReport, id: string): TestSummary {
  const test = report.requirements.find((r) => r.id === id)?.tests.find((t) => t.state === 'failed');
  if (!test) throw new Error(`${id} did not fail`);
  return test;
}

/** The forger's edit of the outcome: the failed test passed, its requirement's failures cleared. */
function passed(report: ConformanceReport, id: string): TestSummary {
  const test = failedTest(report, id);
  test.state = 'passed';
  delete test.failureKind;
  const requirement = report.requirements.find((r) => r.id === id);
  if (requirement) Object.assign(requirement, { verdict: 'pass', failures: [] });
  return test;
}

/** Every number the report gives an exchange after `gone`, one lower: the report the merge writes without it. */
function closeUp(report: ConformanceReport, gone: number): void {
  const SEQ_KEYS = new Set(['exchanges', 'shared', 'exchange', 'idFrom', 'countFrom', 'sentFrom', 'exchangeSeqs', 'exchangeSeq']);
  const lower = (value: unknown): unknown => (typeof value === 'number' ? (value > gone ? value - 1 : value) : Array.isArray(value) ? value.map(lower) : value);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const [key, child] of Object.entries(record)) {
        if (SEQ_KEYS.has(key)) record[key] = lower(child);
        else walk(child);
      }
    }
  };
  walk(report.requirements);
}

const entry = (har: Har, seq: number): HarEntry => {
  const found = har.log.entries.find((e) => e._seq === seq);
  if (!found) throw new Error(`#${seq} not in the log`);
  return found;
};

/** The failing exchange deleted with its judgment, every count lowered by one, every number closed up: as the merge writes a blob that lost it. */
function deleteExchange(report: ConformanceReport, har: Har, test: TestSummary, failing: NonNullable<TestSummary['judgments']>[number]): void {
  if (failing.kind !== 'status' && failing.kind !== 'rule') throw new Error('a check judgment names no one exchange');
  const gone = entry(har, failing.kind === 'status' ? failing.exchange : (failing.exchanges[0] ?? -1));
  test.judgments = test.judgments?.filter((j) => j !== failing);
  test.observed = test.judgments?.length;
  test.exchanges = test.exchanges?.filter((seq) => seq !== gone._seq);
  test.requests -= 1;
  report.traffic.requestCount -= 1;
  const row = report.coverage.find((r) => r.operationId === gone._operationId);
  const cell = row?.cells.find((c) => c.status === String(gone.response.status));
  if (row) row.total -= 1;
  if (cell) cell.count -= 1;
  // As the merge numbers the exchanges of a blob that lost one: the run's and the file's numbers close up.
  har.log.entries = har.log.entries
    .filter((e) => e !== gone)
    .map((e) => ({
      ...e,
      _seq: e._seq > gone._seq ? e._seq - 1 : e._seq,
      ...(e._file === gone._file && (e._fileSeq ?? 0) > (gone._fileSeq ?? 0) ? { _fileSeq: (e._fileSeq ?? 0) - 1 } : {}),
    }));
  closeUp(report, gone._seq);
}

describe("issue 48's keyless forgeries: a failed test edited into a pass, the log edited to match, is refused", () => {
  test(
    'list-drops-oldest (CON-003): the failed test flipped; the added pets are a rule the log decides',
    async (context) => {
      const { report, write } = await faultyRun(context, ['--reference-faults', 'list-drops-oldest']);
      passed(report, 'CON-003');
      const result = write();
      expect(result.differences.join('\n')).toMatch(
        /CON-003 .*: passed, but #\d+ does not hold the rule added-pets-listed: .* of them missing \(createPet acknowledged each\)/,
      );
      expect(result.rejudged).not.toBe('conformant');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'chunked-body-refused (STA-014): the failing exchange deleted, the counts lowered by one, every number closed up',
    async (context) => {
      // A whole-catalog run: the request counts of a pass are held on those (a certified run is one).
      const { report, har, write } = await faultyRun(context, ['--reference-faults', 'chunked-body-refused']);
      const test = passed(report, 'STA-014');
      const failing = test.judgments?.find((j) => j.kind === 'status' && !j.allowed.includes(entry(har, j.exchange).response.status));
      if (failing?.kind !== 'status') throw new Error('STA-014 failed no status judgment');
      deleteExchange(report, har, test, failing);
      const result = write();
      expect(result.differences.join('\n')).toMatch(/STA-014 .*: passed, but it sent \d+ requests?, where every passed STA-014 test sends at least 3/);
      expect(result.rejudged).not.toBe('conformant');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'default-limit-10 (LIM-003): the test flipped, nothing else; its lists are in the log whole',
    async (context) => {
      const { report, har, write } = await faultyRun(context, ['--only', 'LIM-003', '--reference-faults', 'default-limit-10']);
      passed(report, 'LIM-003');
      expect(har.log.entries.filter((e) => e.response.content.comment !== undefined)).toEqual([]);
      const result = write();
      expect(result.differences.join('\n')).toMatch(/LIM-003 .*: passed, but #\d+ does not hold the rule list-length/);
      expect(result.rejudged).not.toBe('conformant');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'name-truncated (SCH-005, SCH-006): a U+FFFD inserted into each failing echo; a body kept as text is exact',
    async (context) => {
      const { report, har, write } = await faultyRun(context, ['--only', 'SCH-005,SCH-006', '--reference-faults', 'name-truncated']);
      for (const id of ['SCH-005', 'SCH-006']) {
        const test = passed(report, id);
        for (const judgment of test.judgments ?? []) {
          if (judgment.kind !== 'rule' || !['pet-echoes-sent', 'pet-as-answered'].includes(judgment.rule)) continue;
          for (const seq of judgment.exchanges) {
            const content = entry(har, seq).response.content;
            content.text = content.text?.replace('"name":"', '"name":"\uFFFD');
          }
        }
      }
      const result = write();
      const text = result.differences.join('\n');
      expect(text).toMatch(/SCH-005 .*: passed, but #\d+ does not hold the rule pet-echoes-sent/);
      expect(text).toMatch(/SCH-006 .*: passed, but #\d+ does not hold the rule pet-/);
      expect(result.rejudged).not.toBe('conformant');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'ind-rate-refuse-one-late (RATE-004): the answer served past Remaining 0 turned into no answer',
    async (context) => {
      const { report, har, write } = await faultyRun(context, ['--only', 'RATE-004', '--reference-faults', 'ind-rate-refuse-one-late']);
      const test = passed(report, 'RATE-004');
      const judgment = test.judgments?.find((j) => j.kind === 'rule' && j.rule === 'rate-none-served-past-zero');
      if (judgment?.kind !== 'rule') throw new Error('RATE-004 judged no exhaustion');
      const spent = judgment.exchanges
        .map((seq) => entry(har, seq))
        .filter((e) => e.response.status === 200 && e.response.headers.some((h) => h.name === 'x-ratelimit-remaining' && h.value === '0'));
      const late = spent[1];
      if (!late) throw new Error('no request served past Remaining 0');
      const row = report.coverage.find((r) => r.operationId === late._operationId);
      const cell = row?.cells.find((c) => c.status === '200');
      if (row) row.total -= 1;
      if (cell) cell.count -= 1;
      report.traffic.transportErrors += 1;
      late.response = { ...late.response, status: 0, statusText: 'no response', headers: [], content: { size: 0, mimeType: '' }, bodySize: -1 };
      late.response._error = { code: 'ERR_TIMEOUT', message: 'no answer' };
      const result = write();
      expect(result.differences.join('\n')).toMatch(new RegExp(`RATE-004 .*: passed, but its #${late._seq} has no answer`));
      expect(result.rejudged).not.toBe('conformant');
      // Dropped from the judgment too: still no answer, still unproven.
      judgment.exchanges = judgment.exchanges.filter((seq) => seq !== late._seq);
      expect(write().differences.join('\n')).toMatch(new RegExp(`RATE-004 .*: passed, but its #${late._seq} has no answer`));
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'status-not-validated (STA-006, thorough): the property case that failed deleted; fewer requests than its generated cases',
    async (context) => {
      const { report, har, write } = await faultyRun(context, ['--only', 'STA-006', '--reference-faults', 'status-not-validated'], 'thorough');
      const failed = report.requirements.find((r) => r.id === 'STA-006')?.tests.find((t) => t.state === 'failed' && t.name.endsWith('(property)'));
      if (!failed) throw new Error('the STA-006 property test did not fail');
      const test = passed(report, 'STA-006');
      expect(test).toBe(failed);
      const failing = test.judgments?.find((j) => j.kind === 'rule' && j.rule === 'status-in' && entry(har, j.exchanges[0] ?? -1).response.status !== 400);
      if (!failing) throw new Error('no failing case');
      deleteExchange(report, har, test, failing);
      if (test.property)
        test.property = {
          seed: test.property.seed,
          numRuns: test.property.numRuns - 1,
          ...(test.property.families ? { families: test.property.families } : {}),
        };
      // The requirement's example test fails the fault too: passed as well, so only the log decides.
      for (const other of report.requirements.find((r) => r.id === 'STA-006')?.tests ?? []) if (other.state === 'failed') other.state = 'passed';
      const result = write();
      expect(result.differences.join('\n')).toMatch(
        /STA-006 .*\(property\): passed, but it sent \d+ requests?, where a passed STA-006 property test at profile thorough sends one or more for each of its 600 generated cases/,
      );
      expect(result.rejudged).not.toBe('conformant');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'status-not-validated (STA-006, standard): the failing case deleted; fewer requests than its input families and generated cases',
    async (context) => {
      const { report, har, write } = await faultyRun(context, ['--only', 'STA-006', '--reference-faults', 'status-not-validated']);
      const test = passed(report, 'STA-006');
      if (!test.name.endsWith('(property)')) throw new Error('the STA-006 property test did not fail');
      const failing = test.judgments?.find((j) => j.kind === 'rule' && j.rule === 'status-in' && entry(har, j.exchanges[0] ?? -1).response.status !== 400);
      if (!failing) throw new Error('no failing case');
      deleteExchange(report, har, test, failing);
      for (const other of report.requirements.find((r) => r.id === 'STA-006')?.tests ?? []) if (other.state === 'failed') other.state = 'passed';
      const result = write();
      // The property stops at its failing case: what is left is short of the 19 families and 4 generated
      // cases every pass sends at standard.
      expect(result.differences.join('\n')).toMatch(
        /STA-006 .*\(property\): passed, but it sent \d+ requests?, where a passed STA-006 property test at profile standard sends one or more for each of its 4 generated cases and its 19 input families/,
      );
      expect(result.rejudged).not.toBe('conformant');
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
