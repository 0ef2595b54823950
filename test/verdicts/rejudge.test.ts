import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseFlatted, stringify as stringifyFlatted } from 'flatted';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadPrivateKey, signStatement, statementFor, writeKeyPair } from '../../src/certificate/index.ts';
import { sha256Hex } from '../../src/certificate/attestation.ts';
import { implementationClaim } from '../../src/certificate/bundle-writer.ts';
import { runRejudge } from '../../src/cli/rejudge-command.ts';
import { runVerify } from '../../src/cli/verify.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import type { ShardRecord } from '../../src/report/shard-record.ts';
import { readManifest, rehash } from '../certificate/bundles.ts';
import { removeReportDir, runCliInTest } from './support/run-cli.ts';

/**
 * The verdict is a function of the recorded traffic: `rejudge` gives back every requirement verdict of
 * an untouched run from its exchange log alone, and `verify` refuses a signed bundle whose log does not
 * prove what its report claims (forged shards merged and signed, an entry removed or altered).
 */

const RUN_TIMEOUT_MS = 180_000;

function rejudged(dir: string): { code: number; result: { same: boolean; stated: string; rejudged: string; differences: string[]; refusedTests: string[] } } {
  const lines: string[] = [];
  const code = runRejudge([dir, '--format', 'json'], (line) => lines.push(line));
  return { code, result: JSON.parse(lines.join('\n')) as never };
}

function verify(dir: string, publicKey: string, ...flags: string[]): { code: number; out: string } {
  const lines: string[] = [];
  const code = runVerify([dir, '--public-key', publicKey, ...flags], (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

describe('rejudge gives back every verdict of an untouched run', () => {
  // Quick runs: a few seconds each. Faults a test judges by status, by a check on every response, and by a body.
  test.for<[string, string[], string | undefined]>([
    ['the fault create-returns-200 (a status judgment)', ['--reference-faults', 'create-returns-200'], 'not-conformant'],
    ['the fault error-status-mismatch (an always-on check)', ['--reference-faults', 'error-status-mismatch'], 'not-conformant'],
    ['the fault error-not-json (bodies that are not JSON)', ['--reference-faults', 'error-not-json'], 'not-conformant'],
    ['the valid variant retry-after-http-date', ['--reference-variants', 'retry-after-http-date'], undefined],
    ['the valid variant plain-429-body', ['--reference-variants', 'plain-429-body'], undefined],
  ])('%s', async ([, args, overall], context) => {
    const run = await runCliInTest(context, ['--profile', 'quick', '--seed', '11', ...args], { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-' });
    expect(run.report, run.stderr).toBeDefined();
    if (overall) expect(run.report?.verdict.overall).toBe(overall);
    const { code, result } = rejudged(run.reportDir);
    expect(result.differences).toEqual([]);
    expect(code).toBe(0);
    expect(result.rejudged).toBe(run.report?.verdict.overall);
  });
});

describe('a property test and the model test, failed and edited into passes, are refused by the rules they recorded', () => {
  test(
    'SCH-006 (the echo of a generated NewPet) and CON-002 (the model replayed over the log)',
    async (context) => {
      const args = ['--profile', 'standard', '--seed', '5', '--reference-faults', 'duplicate-write,name-truncated', '--only', 'CON-002,SCH-006'];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-model-' });
      const path = join(run.reportDir, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const edited = report.requirements.filter((r) => ['CON-002', 'SCH-006'].includes(r.id));
      expect(edited.map((r) => [r.id, r.tests.map((t) => t.state)])).toEqual([
        ['SCH-006', ['failed']],
        ['CON-002', ['failed']],
      ]);
      expect(rejudged(run.reportDir).result.differences).toEqual([]);
      for (const requirement of edited) {
        for (const test of requirement.tests) {
          test.state = 'passed';
          delete test.failureKind;
        }
      }
      writeFileSync(path, JSON.stringify(report));
      const text = rejudged(run.reportDir).result.differences.join('\n');
      expect(text).toMatch(/SCH-006 .*: passed, but #\d+ does not hold the rule pet-echoes-sent: a Pet echoing the name/);
      expect(text).toMatch(/CON-002 .*: passed, but #\d+ does not hold the rule store-model: listPets\(.*\) lists each pet once expected, id \d+ listed twice/);
      // A forger who also drops the judgments that fail, and restates their count, leaves exchanges the
      // rules every case of these tests is judged by do not name.
      for (const requirement of edited) {
        for (const test of requirement.tests) {
          test.judgments = (test.judgments ?? []).filter((j) => !(j.kind === 'rule' && ['pet-echoes-sent', 'store-model'].includes(j.rule)));
          test.observed = test.judgments.length;
        }
      }
      writeFileSync(path, JSON.stringify(report));
      const dropped = rejudged(run.reportDir).result;
      expect(dropped.differences.join('\n')).toMatch(/SCH-006 .*: passed, but #\d+ \(createPet, 201\) is judged by no pet-echoes-sent/);
      expect(dropped.differences.join('\n')).toMatch(/CON-002 .*: passed, but #\d+ \(\w+, \d+\) is judged by no store-model/);
      expect(dropped.rejudged).not.toBe('CONFORMANT');
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe('an example test edited into a pass, the judgment that failed dropped, is refused for the judgment it lacks', () => {
  test(
    'CON-001 (a read-back that is another pet: its status judgments kept) and DEP-005 (no Link: its one judgment dropped)',
    async (context) => {
      const args = ['--profile', 'standard', '--seed', '5', '--reference-faults', 'get-returns-other-pet,link-header-missing', '--only', 'CON-001,DEP-005'];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-dropped-' });
      const path = join(run.reportDir, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const edited = report.requirements.filter((r) => ['CON-001', 'DEP-005'].includes(r.id));
      expect(edited.map((r) => [r.id, r.tests.map((t) => t.state)])).toEqual([
        ['DEP-005', ['failed']],
        ['CON-001', ['failed']],
      ]);
      expect(rejudged(run.reportDir).result.differences).toEqual([]);
      // The forger passes each test, drops the judgments that fail and restates their count: what is
      // left holds on the log (CON-001's statuses are 200), so only what a pass must judge refuses it.
      for (const requirement of edited) {
        for (const test of requirement.tests) {
          test.state = 'passed';
          delete test.failureKind;
          test.judgments = (test.judgments ?? []).filter((j) => !(j.kind === 'rule' && ['pet-is', 'deprecation-link'].includes(j.rule)));
          test.observed = test.judgments.length;
        }
      }
      writeFileSync(path, JSON.stringify(report));
      const { result } = rejudged(run.reportDir);
      const text = result.differences.join('\n');
      expect(text).toMatch(/CON-001 .*: passed, but it records no pet-is judgment, where every passed CON-001 test makes one/);
      expect(text).toMatch(/DEP-005 .*: passed, but it records no judgment, where every test of this suite records what it judged/);
      expect(result.refusedTests).toHaveLength(2);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe('a judgment whose params were edited to expect what the server answered is refused by the log', () => {
  test(
    "CON-001 compared with another pet's create, and INT-001 with the rounded categoryId",
    async (context) => {
      const args = [
        '--profile',
        'standard',
        '--seed',
        '5',
        '--reference-faults',
        'get-returns-other-pet,category-id-through-double',
        '--only',
        'CON-001,INT-001',
      ];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-params-' });
      const path = join(run.reportDir, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const entries = readJson<{ log: { entries: Array<{ _seq: number; response: { content: { text?: string } } }> } }>(join(run.reportDir, 'exchanges.har'))
        .log.entries;
      const answered = (seq: number) => JSON.parse(entries.find((e) => e._seq === seq)?.response.content.text ?? 'null') as Record<string, unknown> | null;
      const createdWithId = (id: unknown) =>
        entries.find((e) => {
          const text = e.response.content.text ?? '';
          return text.startsWith('{') && new RegExp(`"id":${String(id)}[,}]`).test(text);
        })?._seq;
      const edited = report.requirements.filter((r) => ['CON-001', 'INT-001'].includes(r.id));
      expect(edited.map((r) => [r.id, r.tests.every((t) => t.state === 'failed')])).toEqual([
        ['INT-001', true],
        ['CON-001', true],
      ]);
      expect(rejudged(run.reportDir).result.differences).toEqual([]);
      // The forger passes each test and restates each failing pet-is so that it holds on what the server
      // answered: CON-001's against the create of the pet getPet returned, INT-001's with its categoryId.
      let forged = 0;
      for (const requirement of edited) {
        for (const test of requirement.tests) {
          test.state = 'passed';
          delete test.failureKind;
          for (const judgment of test.judgments ?? []) {
            if (judgment.kind !== 'rule' || judgment.rule !== 'pet-is') continue;
            const pet = answered(judgment.exchanges[0]!);
            if (!pet) continue;
            const params = judgment.params;
            if (requirement.id === 'CON-001' && pet.id !== undefined) {
              const other = createdWithId(pet.id);
              if (other === undefined || other === params.idFrom) continue;
              Object.assign(params, { idFrom: other, name: pet.name, categoryId: String(pet.categoryId) });
              if (typeof pet.status === 'string') params.status = pet.status;
              forged += 1;
            } else if (requirement.id === 'INT-001' && params.categoryId !== String(pet.categoryId)) {
              params.categoryId = String(pet.categoryId);
              forged += 1;
            }
          }
        }
      }
      expect(forged).toBeGreaterThan(1);
      writeFileSync(path, JSON.stringify(report));
      const { result } = rejudged(run.reportDir);
      const text = result.differences.join('\n');
      expect(text).toMatch(
        /CON-001 .*: passed, but #\d+ does not hold the rule pet-is: getPet of the animal #\d+ answered \(id \d+\) expected, the request asked for id \d+/,
      );
      expect(text).toMatch(
        /INT-001 .*: passed, but #\d+ does not hold the rule pet-is: the categoryId the log records \(the request\) expected, the judgment compares with categoryId \d+, where the request has \d+/,
      );
      expect(result.refusedTests.length).toBeGreaterThanOrEqual(2);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe('a failing case dropped from a test that judges several cases alike is refused', () => {
  test(
    'STA-008: the one 500 among odd bodies, its judgment dropped',
    async (context) => {
      const args = ['--profile', 'standard', '--seed', '5', '--reference-faults', 'malformed-json-500', '--only', 'STA-008'];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-case-' });
      const path = join(run.reportDir, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const failed = (report.requirements.find((r) => r.id === 'STA-008')?.tests ?? []).filter((t) => t.state === 'failed');
      expect(failed.length).toBeGreaterThan(0);
      expect(rejudged(run.reportDir).result.differences).toEqual([]);
      const statuses = new Map(
        readJson<{ log: { entries: Array<{ _seq: number; response: { status: number } }> } }>(join(run.reportDir, 'exchanges.har')).log.entries.map((e) => [
          e._seq,
          e.response.status,
        ]),
      );
      // The forger passes each test and drops the judgments of the 5xx answers; the other cases' judgments
      // hold, and each test still records the status-below every STA-008 pass makes.
      for (const test of failed) {
        test.state = 'passed';
        delete test.failureKind;
        test.judgments = (test.judgments ?? []).filter((j) => j.kind !== 'rule' || j.exchanges.every((seq) => (statuses.get(seq) ?? 0) < 500));
        expect(test.judgments.length).toBeGreaterThan(0);
        test.observed = test.judgments.length;
      }
      writeFileSync(path, JSON.stringify(report));
      const { result } = rejudged(run.reportDir);
      expect(result.differences.join('\n')).toMatch(
        /STA-008 .*: passed, but #\d+ \(createPet, 500\) is named by no judgment, where a passed STA-008 test judges every exchange it sends/,
      );
      expect(result.refusedTests).toHaveLength(failed.length);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe('a status judgment edited to allow what the server answered is refused', () => {
  test(
    'STA-001 allowing the 200 that create-returns-200 answers',
    async (context) => {
      const args = ['--profile', 'quick', '--seed', '5', '--reference-faults', 'create-returns-200', '--only', 'STA-001'];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-allowed-' });
      const path = join(run.reportDir, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const tests = report.requirements.find((r) => r.id === 'STA-001')?.tests ?? [];
      expect(tests.map((t) => t.state)).toEqual(['failed']);
      expect(rejudged(run.reportDir).result.differences).toEqual([]);
      for (const test of tests) {
        test.state = 'passed';
        delete test.failureKind;
        for (const judgment of test.judgments ?? []) if (judgment.kind === 'status') judgment.allowed = [201, 200];
      }
      writeFileSync(path, JSON.stringify(report));
      const { result } = rejudged(run.reportDir);
      expect(result.differences.join('\n')).toMatch(/STA-001 .*: passed, but the status judgment of #\d+ allows 200, which no test of STA-001 allows \(201\)/);
      expect(result.refusedTests).toHaveLength(1);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe("RATE-008's count of a plan key's window, failed and edited into a pass, is refused by its rule", () => {
  test(
    'a Free key whose window serves 61 requests (out-free-plan-100), in a certified run that keeps every exchange whole',
    async (context) => {
      const bundle = mkdtempSync(join(tmpdir(), 'rejudge-plan-window-'));
      context.onTestFinished(() => rmSync(bundle, { recursive: true, force: true }));
      const args = ['--certify', bundle, '--force', '--seed', '3', '--reference-faults', 'out-free-plan-100'];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-plan-window-' });
      expect(run.report?.verdict.overall, run.stderr).toBe('not-conformant');
      const path = join(bundle, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const requirement = report.requirements.find((r) => r.id === 'RATE-008');
      expect(requirement?.tests.map((t) => t.state)).toContain('failed');
      expect(rejudged(bundle).result.differences).toEqual([]);
      for (const test of requirement?.tests ?? []) {
        test.state = 'passed';
        delete test.failureKind;
      }
      writeFileSync(path, JSON.stringify(report));
      const text = rejudged(bundle).result.differences.join('\n');
      // Taken as recorded while it was a check; a rule now, counted again from the log.
      expect(text).toMatch(
        /RATE-008 .*: passed, but #\d+ does not hold the rule rate-plan-window: request 61 of a window opened by the suite refused with 429/,
      );
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe("RATE-008's limit, restated as the row the server answered, is refused by the plan of the key that sent it", () => {
  test(
    'the embedded Enterprise key answered the Free row (ind-rate-limit-hardcoded), its judgment edited to state that row',
    async (context) => {
      const args = ['--shard', '1/1', '--seed', '3', '--only', 'RATE-008', '--reference-faults', 'ind-rate-limit-hardcoded'];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-plan-row-' });
      const path = join(run.reportDir, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const requirement = report.requirements.find((r) => r.id === 'RATE-008');
      // The plan-row test fails; the window-length test of RATE-008 may skip beside it (not its subject).
      const failed = requirement?.tests.filter((t) => t.state === 'failed') ?? [];
      expect(failed).toHaveLength(1);
      for (const other of requirement?.tests.filter((t) => t.state !== 'failed') ?? []) expect(other.state).toBe('skipped');
      expect(rejudged(run.reportDir).result.differences).toEqual([]);
      for (const test of failed) {
        test.state = 'passed';
        delete test.failureKind;
        for (const judgment of test.judgments ?? []) {
          const main = judgment.kind === 'rule' && judgment.rule === 'rate-header-is' && !JSON.stringify(judgment.params).includes('[60,1000]');
          if (main) judgment.params = { field: 'limit', oneOf: [60, 1000] };
        }
      }
      writeFileSync(path, JSON.stringify(report));
      expect(rejudged(run.reportDir).result.differences.join('\n')).toMatch(
        /RATE-008 .*: passed, but the rate-header-is judgment of #\d+ states \{"field":"limit","oneOf":\[60,1000\]\}, where the enterprise-plan key that sent it is held to 1000000000 a minute/,
      );
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe("LIM-003's count of the store, restated smaller, is refused", () => {
  test(
    'a default of 10 (default-limit-10) edited into a pass: the count stated, or read from the list before the fill',
    async (context) => {
      const args = ['--shard', '1/1', '--seed', '3', '--profile', 'standard', '--only', 'LIM-003', '--reference-faults', 'default-limit-10'];
      const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-store-count-' });
      const path = join(run.reportDir, 'conformance.json');
      const report = readJson<ConformanceReport>(path);
      const test = report.requirements.find((r) => r.id === 'LIM-003')?.tests[0];
      expect(test?.state).toBe('failed');
      expect(rejudged(run.reportDir).result.differences).toEqual([]);
      const count = test?.judgments?.find((j) => j.kind === 'rule' && j.rule === 'list-length');
      if (!test || count?.kind !== 'rule') throw new Error('LIM-003 judged no list-length');
      // The store listed (empty), filled with 21 pets, listed again: the count is read from the second list.
      const first = test.exchanges?.[0];
      const second = count.params.countFrom;
      expect({ first, second, max: count.params.max }).toEqual({ first: 1, second: 23, max: 20 });
      test.state = 'passed';
      delete test.failureKind;
      const forged = (params: Record<string, unknown>) => {
        count.params = params;
        writeFileSync(path, JSON.stringify(report));
        return rejudged(run.reportDir).result.differences.join('\n');
      };
      // The count stated as what the faulty default answered, as a store of 10 would have it.
      expect(forged({ min: 10, max: 20 })).toMatch(/LIM-003 .*: passed, but the list-length judgment of #\d+ gives no countFrom/);
      // The count read from the list before the test filled the store (it held none).
      expect(forged({ countFrom: first, max: 20 })).toMatch(
        new RegExp(`LIM-003 .*: passed, but a rule counts the store from #${first}, where the test listed it again later \\(#${second}\\)`),
      );
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe("CON-003's count of the pet in its list, loosened in a forged pass, is refused", () => {
  test('the pet just added missing from its complete list (list-drops-newest), its lower bound dropped', async (context) => {
    const args = ['--shard', '1/1', '--seed', '3', '--profile', 'standard', '--only', 'CON-003', '--reference-faults', 'list-drops-newest'];
    const run = await runCliInTest(context, args, { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-listed-once-' });
    const path = join(run.reportDir, 'conformance.json');
    const report = readJson<ConformanceReport>(path);
    const test = report.requirements.find((r) => r.id === 'CON-003')?.tests[0];
    expect(test?.state).toBe('failed');
    expect(rejudged(run.reportDir).result.differences).toEqual([]);
    const count = test?.judgments?.find((j) => j.kind === 'rule' && j.rule === 'list-count-of-id');
    if (!test || count?.kind !== 'rule') throw new Error('CON-003 judged no list-count-of-id');
    test.state = 'passed';
    delete test.failureKind;
    // "At most once" holds on a list that lost the pet: only "at least once" fails there. The added-pets
    // judgment the failure cut short must be made up: as a check, its condition is not in the log; as
    // the rule, on the same list, the log holds the create it lacks.
    delete count.params.min;
    const forged = (judgment: NonNullable<typeof test.judgments>[number]) => {
      test.judgments = [...(test.judgments ?? []).filter((j) => j.kind !== 'check' && !(j.kind === 'rule' && j.rule === 'added-pets-listed')), judgment];
      test.observed = test.judgments.length;
      writeFileSync(path, JSON.stringify(report));
      return rejudged(run.reportDir).result.differences.join('\n');
    };
    expect(forged({ kind: 'check', exchanges: count.exchanges })).toMatch(
      /CON-003 .*: passed, but it records a check on #\d+, whose condition the log does not give/,
    );
    // Made up as the rule, it is refused on the same list: by the rule where the list was asked for more
    // than the clocks' millisecond step after the create's answer (the log holds the create it lacks), and
    // always by the count's lower bound that every CON-003 test states (a list sent within that step does
    // not hold the pet to it: a valid server may be mid-write).
    expect(forged({ kind: 'rule', rule: 'added-pets-listed', params: {}, exchanges: count.exchanges })).toMatch(
      /CON-003 .*: passed, but (#\d+ does not hold the rule added-pets-listed: .*1 of them missing|the list-count-of-id judgment of #\d+ gives min null, where every CON-003 test gives 1)/,
    );
  });
});

describe('verify refuses a signed bundle whose log does not prove its report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rejudge-verdicts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let keys: ReturnType<typeof writeKeyPair>;
  const bundle = join(dir, 'bundle');
  const shards = [join(dir, 'shard-1'), join(dir, 'shard-2')];
  const faulty = ['--reference-faults', 'create-returns-200,error-status-mismatch', '--seed', '7'];
  // The runs' own report directories: started before any test, so removed with the describe's directory.
  const started: Array<{ reportDir: string }> = [];
  afterAll(() => started.forEach(removeReportDir));

  beforeAll(async () => {
    keys = writeKeyPair(join(dir, 'keys'));
    const context = { onTestFinished: () => undefined };
    const runs = await Promise.all([
      runCliInTest(context, ['--certify', bundle, '--sign-key', keys.privatePath], { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-bundle-' }),
      ...shards.map((out, i) =>
        runCliInTest(context, [...faulty, '--shard', `${i + 1}/2`, '--run-nonce', 'run-1'], { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-shard-' }).then(
          (run) => {
            mkdirSync(out);
            for (const name of readdirSync(join(run.reportDir, 'blob'))) copyFileSync(join(run.reportDir, 'blob', name), join(out, name));
            return run;
          },
        ),
      ),
    ]);
    started.push(...runs);
    expect(runs[0]?.exitCode, runs[0]?.stderr).toBe(0);
  }, 600_000);

  const collect = (label: string) => {
    const target = join(dir, label);
    mkdirSync(target);
    for (const shard of shards) for (const name of readdirSync(shard)) copyFileSync(join(shard, name), join(target, name));
    return target;
  };

  test('an untouched thorough bundle verifies, re-judged whole', () => {
    const { code, out } = verify(bundle, keys.publicPath);
    expect(code, out).toBe(0);
    expect(out).toMatch(/ok {3}rejudged: re-judged from exchanges\.har: \d+ exchanges/);
  });

  test('forged shards (failed tests passed, findings cleared): the merge re-judges them and refuses to sign, naming the tests', async (context) => {
    const forged = collect('forged');
    const changed = forgeShards(forged);
    expect(changed.length).toBeGreaterThan(0);
    const merged = join(dir, 'forged-bundle');
    const merge = await runCliInTest(context, ['--merge-reports', forged, '--certify', merged, '--sign-key', keys.privatePath], {
      timeoutMs: RUN_TIMEOUT_MS,
      label: 'rejudge-merge-',
    });
    expect(merge.exitCode, merge.stdout + merge.stderr).toBe(2);
    expect(merge.stdout + merge.stderr).toContain("the shards' recorded exchanges do not prove their outcomes");
    // The console shortens the message; the report keeps it whole.
    const said = merge.report?.harnessErrors.map((problem) => problem.message).join('\n') ?? '';
    const statusJudged = changed.find((name) => name.startsWith('STA-001 '));
    expect(statusJudged).toBeDefined();
    expect(said).toContain(`${statusJudged ?? ''}: passed, but #`);
    expect(said).toMatch(/answered 200, where its judgment allows 201/);
    expect(existsSync(join(merged, 'attestation.intoto.jsonl'))).toBe(false);
  });

  test('a test failed by a named rule, alone edited into a pass (its findings kept): the merge names the rule it does not hold', async (context) => {
    const forged = collect('forged-rule');
    // ERR-002 judges Error.status with the rule error-status-is-http-status (ctx.judge), recorded before it failed.
    const changed = forgeShards(forged, (name) => name.startsWith('ERR-002 '));
    expect(changed.length).toBeGreaterThan(0);
    const merge = await runCliInTest(context, ['--merge-reports', forged], { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-rule-' });
    expect(merge.exitCode, merge.stdout + merge.stderr).toBe(2);
    const said = merge.report?.harnessErrors.map((problem) => problem.message).join('\n') ?? '';
    expect(said).toContain(`${changed[0] ?? ''}: passed, but #`);
    expect(said).toMatch(/does not hold the rule error-status-is-http-status: Error\.status \d+ expected, HTTP \d+ with Error\.status/);
  });

  test('the same shards untouched merge, and the merged report re-judges to its own verdict', async (context) => {
    const untouched = collect('untouched');
    const merge = await runCliInTest(context, ['--merge-reports', untouched], { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-untouched-' });
    expect(merge.exitCode, merge.stdout + merge.stderr).toBe(1);
    const again = rejudged(merge.reportDir);
    expect(again.result.differences).toEqual([]);
    expect(again.code).toBe(0);
  });

  test('shards of another run (another nonce) are refused by the merge', async (context) => {
    const other = collect('other-nonce');
    const path = join(other, 'blob-2-2.run.json');
    const record = readJson<ShardRecord>(path);
    record.run.runNonce = 'run-2';
    writeFileSync(path, JSON.stringify(record));
    const merge = await runCliInTest(context, ['--merge-reports', other], { timeoutMs: RUN_TIMEOUT_MS, label: 'rejudge-nonce-' });
    expect(merge.exitCode).toBe(2);
    expect(merge.stdout + merge.stderr).toContain('they differ in run nonce (--run-nonce)');
  });

  test.each([
    ['removed', (entries: HarEntryLike[], seq: number) => entries.filter((e) => e._seq !== seq), /its exchanges #\d+ are not in the log/],
    [
      'altered',
      (entries: HarEntryLike[], seq: number) => entries.map((e) => (e._seq === seq ? { ...e, response: { ...e.response, status: 500 } } : e)),
      /the check no-server-error fails STA-008 on #\d+, which the report does not record/,
    ],
  ])('a HAR entry %s and the bundle re-signed by the trusted key: refused', (label, edit, named) => {
    const copy = join(dir, `har-${label}`);
    mkdirSync(copy);
    for (const name of readdirSync(bundle)) copyFileSync(join(bundle, name), join(copy, name));
    const report = readJson<ConformanceReport>(join(copy, 'conformance.json'));
    const test = report.requirements.flatMap((r) => r.tests).find((t) => t.state === 'passed' && t.judgments?.some((j) => j.kind === 'status'));
    const judgment = test?.judgments?.find((j) => j.kind === 'status');
    if (!test || judgment?.kind !== 'status') throw new Error('no status judgment in the bundle');
    const harPath = join(copy, 'exchanges.har');
    const har = readJson<{ log: { entries: HarEntryLike[] } }>(harPath);
    har.log.entries = edit(har.log.entries, judgment.exchange);
    writeFileSync(harPath, JSON.stringify(har));
    resign(copy, keys.privatePath);
    const { code, out } = verify(copy, keys.publicPath);
    expect(code).toBe(1);
    expect(out).toMatch(named);
    expect(out).toContain(test.name);
    // Only the re-judging sees it: the signature and the hashes hold.
    expect(out).toMatch(/ok {3}signature:/);
    expect(out).toMatch(/ok {3}manifest files:/);
  });
});

interface HarEntryLike {
  _seq: number;
  response: { status: number };
}

/** The forger re-signs with the trusted key: hashes and statement made consistent again. */
function resign(dir: string, privateKeyPath: string): void {
  rehash(dir);
  const manifest = readManifest(dir);
  const report = readJson<ConformanceReport>(join(dir, 'conformance.json'));
  const manifestBytes = readFileSync(join(dir, 'manifest.json'));
  const subjects = [...manifest.files, { name: 'manifest.json', bytes: manifestBytes.length, sha256: sha256Hex(manifestBytes) }];
  const envelope = signStatement(statementFor(report, implementationClaim(manifest), subjects), loadPrivateKey(privateKeyPath));
  writeFileSync(join(dir, 'attestation.intoto.jsonl'), `${JSON.stringify(envelope)}\n`);
}

interface ForgedTask {
  type: string;
  id?: string;
  name?: string;
  mode?: string;
  result?: Record<string, unknown>;
  meta?: { conformance?: Record<string, unknown> };
  tasks?: ForgedTask[];
}

/**
 * What the forger did: every failed test passed, its failure and every finding cleared; returns
 * the tests changed. With `only`, just the failed tests it names are passed, and the findings are kept.
 */
function forgeShards(dir: string, only?: (name: string) => boolean): string[] {
  const changed: string[] = [];
  const changedIds = new Set<string>();
  const names = readdirSync(dir);
  for (const name of names.filter((n) => !n.endsWith('.run.json'))) {
    const path = join(dir, name);
    const blob = parseFlatted(readFileSync(path, 'utf8')) as unknown[];
    const walk = (task: ForgedTask) => {
      if (task.type === 'test' && task.result?.state === 'fail' && (only?.(task.name ?? '') ?? true)) {
        task.result = { ...task.result, state: 'pass', errors: [] };
        const meta = task.meta?.conformance;
        if (meta) delete meta.failure;
        changed.push(task.name ?? '');
        if (task.id) changedIds.add(task.id);
      }
      const meta = task.meta?.conformance;
      if (meta && !only) meta.findings = [];
      for (const child of task.tasks ?? []) walk(child);
    };
    for (const file of blob[1] as ForgedTask[]) walk(file);
    writeFileSync(path, stringifyFlatted(blob));
  }
  for (const name of names.filter((n) => n.endsWith('.run.json'))) {
    const path = join(dir, name);
    const record = JSON.parse(readFileSync(path, 'utf8')) as ShardRecord;
    if (!only) record.verdict = { overall: 'conformant', exitCode: 0 };
    record.tests = record.tests.map((t) => (t.state === 'failed' && (!only || changedIds.has(t.id)) ? { ...t, state: 'passed' } : t));
    writeFileSync(path, JSON.stringify(record));
  }
  return changed;
}
