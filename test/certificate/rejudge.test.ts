import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { JUDGED_ON_EVERY_EXCHANGE } from '../../src/certificate/coverage.ts';
import { BODY_CHECKS, UNRECORDED_CHECKS, rejudge, rejudgeCheck } from '../../src/certificate/rejudge.ts';
import { CHECKS } from '../../src/checks/registry.ts';
import { RECORDED_BODY_CHARS } from '../../src/client/redact.ts';
import { createContract } from '../../src/contract/index.ts';
import { type Har, type HarEntry, toHar } from '../../src/report/har.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { notConformantRun } from './bundles.ts';
import { MADE_UP } from './logged-run.ts';

const CATALOG = loadCatalog();
const CONTRACT = createContract();

/** Checks that read only the status and headers: each may run again on a response whose body was cut. */
const HEADER_CHECKS = [
  'no-server-error',
  'documented-status',
  'rate-limit-headers-present',
  'rate-limit-headers-well-formed',
  'retry-after-on-429',
  'retry-after-well-formed',
  'ietf-ratelimit-agrees',
  'www-authenticate-on-401',
  'sunset-date',
  'deprecation-only-where-deprecated',
  'deprecation-structured-date',
  // HTTP-001's connection checks read the entry's _connection record, not its body.
  'connection-kept-open',
  'nothing-unasked',
];

function logged(): { report: ConformanceReport; har: Har } {
  const { report, exchanges } = notConformantRun();
  return { report, har: toHar(exchanges, { name: 'animal-store-conformance', version: report.run.suiteVersion }) };
}

/** The first entry some passed test judged with a status, and that test's name. */
function judgedEntry(report: ConformanceReport, har: Har): { entry: HarEntry; test: string } {
  for (const test of freelyJudged(report)) {
    const seq = test.state === 'passed' ? test.judgments?.[0]?.kind === 'status' && test.judgments[0].exchange : undefined;
    const entry = har.log.entries.find((e) => e._seq === seq);
    if (entry) return { entry, test: test.name };
  }
  throw new Error('no judged entry in the fixture');
}

/**
 * The tests whose judgments a case here may replace: those of requirements whose every exchange must be
 * judged by named rules (src/certificate/coverage.ts) would be refused for that alone.
 */
const freelyJudged = (report: ConformanceReport) => report.requirements.filter((r) => !JUDGED_ON_EVERY_EXCHANGE[r.id]).flatMap((r) => r.tests);

describe('rejudge: the verdict again, from the exchange log alone', () => {
  it('classifies every always-on check: re-run on a cut body or not (a new check must be placed here)', () => {
    for (const check of CHECKS) {
      const places = [BODY_CHECKS.has(check.name), UNRECORDED_CHECKS.has(check.name), HEADER_CHECKS.includes(check.name)].filter(Boolean);
      expect({ check: check.name, places: places.length }).toEqual({ check: check.name, places: 1 });
    }
  });

  it('an untouched log gives exactly what the report claims', () => {
    const { report, har } = logged();
    const result = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(result.differences).toEqual([]);
    expect(result.verdict).toBe(report.verdict.overall);
    expect(rejudgeCheck(report, har, CATALOG, CONTRACT, MADE_UP).ok).toBe(true);
  });

  it('a removed entry is named with the test that sent it, and the run count', () => {
    const { report, har } = logged();
    const { entry, test } = judgedEntry(report, har);
    har.log.entries = har.log.entries.filter((e) => e !== entry);
    const { differences, refusedTests } = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(differences.join('\n')).toContain(`${test}: its exchanges #${entry._seq} are not in the log`);
    expect(differences.join('\n')).toMatch(/states requestCount \d+, the log gives \d+/);
    expect(refusedTests).toContain(test);
  });

  it('an entry altered to a server error shows a finding the report does not record, and the requirement it fails', () => {
    const { report, har } = logged();
    const { entry, test } = judgedEntry(report, har);
    entry.response.status = 500;
    const { differences, verdict } = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(differences.join('\n')).toContain(`${test}: the check no-server-error fails STA-008 on #${entry._seq}, which the report does not record`);
    expect(differences.join('\n')).toMatch(/STA-008: states pass, its tests give fail \(re-judged from the log\)/);
    expect(verdict).toBe('not-conformant');
  });

  it('a passed test whose status judgment its entry fails is refused as failed', () => {
    const { report, har } = logged();
    const test = freelyJudged(report).find((t) => t.state === 'passed' && t.judgments?.length);
    if (!test?.judgments?.[0] || test.judgments[0].kind !== 'status') throw new Error('fixture without a judged pass');
    // As the harness records ctx.expectStatus: this exchange must have answered 418.
    test.judgments[0] = { kind: 'status', exchange: test.judgments[0].exchange, allowed: [418] };
    const { differences, refusedTests } = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(differences.join('\n')).toMatch(new RegExp(`${escape(test.name)}: passed, but #\\d+ answered \\d+, where its judgment allows 418`));
    expect(refusedTests).toEqual([test.name]);
  });

  it('a passed test whose rule its entry does not hold is refused as failed, naming the rule', () => {
    const { report, har } = logged();
    const test = freelyJudged(report).find((t) => t.state === 'passed' && t.judgments?.length);
    if (!test?.judgments?.[0] || test.judgments[0].kind !== 'status') throw new Error('fixture without a judged pass');
    const seq = test.judgments[0].exchange;
    const entry = har.log.entries.find((e) => e._seq === seq);
    if (!entry) throw new Error('fixture without the judged entry');
    // As a failed ctx.judge records it, its outcome then edited to a pass: the entry is no Error body.
    entry.response.content.text = '{"code":"not_found"}';
    test.judgments = [{ kind: 'rule', rule: 'json-schema', params: { schema: 'Error' }, exchanges: [seq] }];
    const result = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(result.differences.join('\n')).toContain(`${test.name}: passed, but #${seq} does not hold the rule json-schema: a body that is Error expected,`);
    expect(result.refusedTests).toContain(test.name);
    expect(result.stats.rules).toBeGreaterThan(0);
  });

  it('a rule that holds on its entry passes; one on a cut body leaves its test unproven; an unknown rule is refused', () => {
    const { report, har } = logged();
    const test = freelyJudged(report).find((t) => t.state === 'passed' && t.judgments?.length);
    if (!test?.judgments?.[0] || test.judgments[0].kind !== 'status') throw new Error('fixture without a judged pass');
    const seq = test.judgments[0].exchange;
    const entry = har.log.entries.find((e) => e._seq === seq);
    if (!entry) throw new Error('fixture without the judged entry');
    // Rules the fixture's other tests hold (the model test's), evaluated in every case below.
    const others = rejudge(report, har, CATALOG, CONTRACT, MADE_UP).stats.rules;
    test.judgments = [{ kind: 'rule', rule: 'status-in', params: { allowed: [entry.response.status] }, exchanges: [seq] }];
    const holding = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(holding.refusedTests).not.toContain(test.name);
    expect(holding.stats.rules).toBe(others + 1);

    test.judgments = [{ kind: 'rule', rule: 'list-length', params: { max: 0 }, exchanges: [seq] }];
    entry.response.content.text = `[${'1,'.repeat(RECORDED_BODY_CHARS / 2)}1]`.slice(0, RECORDED_BODY_CHARS);
    entry.response.content.comment = 'body cut for the report';
    entry.response.content.size = RECORDED_BODY_CHARS * 2;
    // Fail closed: what the log cannot decide never stands as recorded.
    const cut = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(cut.refusedTests).toContain(test.name);
    expect(cut.differences.join('\n')).toContain(
      `${test.name}: passed, but its list-length judgment reads #${seq}, whose body the log cut: the log cannot decide it`,
    );
    expect(cut.stats).toMatchObject({ rules: others, rulesUnproven: 1, rulesTakenAsRecorded: 0 });

    test.judgments = [{ kind: 'rule', rule: 'always-true', params: {}, exchanges: [seq] }];
    const unknown = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(unknown.differences.join('\n')).toContain(`${test.name}: passed, but a judgment names the rule "always-true", which this suite does not have`);
  });

  it('a rule reads the id of a created pet from the entry idFrom names: a forged id, or another source, is refused', () => {
    const { report, har } = logged();
    const tests = freelyJudged(report);
    // A passed test, and an earlier entry of its file: the createPet whose 201 gave the id.
    const pick = tests.flatMap((test) => {
      const seq = test.state === 'passed' && test.judgments?.[0]?.kind === 'status' ? test.judgments[0].exchange : undefined;
      const earlier = tests
        .filter((t) => t.file === test.file)
        .flatMap((t) => t.exchanges ?? [])
        .find((s) => seq !== undefined && s < seq);
      return seq !== undefined && earlier !== undefined ? [{ test, seq, earlier }] : [];
    })[0];
    if (!pick) throw new Error('fixture without a pass after an earlier entry of its file');
    const { test, seq, earlier } = pick;
    const others = rejudge(report, har, CATALOG, CONTRACT, MADE_UP).stats.rules;
    const entry = (n: number) => har.log.entries.find((e) => e._seq === n);
    const [created, listed] = [entry(earlier), entry(seq)];
    if (!created || !listed) throw new Error('fixture without the entries');
    created.response.status = 201;
    created.response.content.text = '{"id":7,"name":"Rex","categoryId":2}';
    listed.response.content.text = '[{"id":8,"name":"Max","categoryId":2}]';
    const judge = (params: Record<string, unknown>) => {
      test.judgments = [{ kind: 'rule', rule: 'list-count-of-id', params, exchanges: [seq] }];
      return rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    };
    // The pet created (id 7) is not listed: a failed test edited into a pass is refused by the rule.
    const edited = judge({ idFrom: earlier, min: 1 });
    expect(edited.differences.join('\n')).toContain(
      `${test.name}: passed, but #${seq} does not hold the rule list-count-of-id: a list holding id 7 at least 1 time expected`,
    );
    expect(edited.refusedTests).toContain(test.name);
    // The forger states the id that is listed: a stated id is not read, so the judgment holds nothing.
    expect(judge({ id: '8', min: 1 }).refusedTests).toContain(test.name);
    // …or names another entry as the source: one its file did not send, or one after the list, is refused.
    const foreign = har.log.entries.map((e) => e._seq).find((n) => !tests.some((t) => t.file === test.file && t.exchanges?.includes(n)));
    if (foreign === undefined) throw new Error('fixture with one file only');
    expect(judge({ idFrom: foreign, min: 1 }).differences.join('\n')).toContain(`a rule reads its id from #${foreign}, which no test of its file sent`);
    expect(judge({ idFrom: seq, min: 1 }).differences.join('\n')).toContain(
      `a rule reads its id from #${seq}, which was not sent before the exchanges it judges`,
    );
    // The log as an honest run left it: the pet created is listed, and the rule holds again on the log.
    listed.response.content.text = '[{"id":7,"name":"Rex","categoryId":2}]';
    const honest = judge({ idFrom: earlier, min: 1, max: 1 });
    expect(honest.refusedTests).not.toContain(test.name);
    expect(honest.stats.rules).toBe(others + 1);
  });

  it('a pass that judged nothing, a finding cleared, a body marked cut, a summarised entry and time running backwards are each named', () => {
    const { report, har } = logged();
    const tests = freelyJudged(report);
    const passed = tests.find((t) => t.state === 'passed' && t.judgments?.length);
    const withFinding = tests.find((t) => t.findings?.length);
    if (!passed || !withFinding) throw new Error('fixture without a pass or a finding');
    delete passed.judgments;
    delete passed.observed;
    passed.requests = 0;
    delete passed.exchanges;
    withFinding.findings = [];
    const [first, second, third] = har.log.entries;
    if (!first || !second || !third) throw new Error('fixture without entries');
    first.response.content.comment = 'body cut for the report';
    second._summarised = true;
    third.startedDateTime = new Date(Date.parse(first.startedDateTime) - 60_000).toISOString();
    const { differences } = rejudge(report, har, CATALOG, CONTRACT, MADE_UP);
    const text = differences.join('\n');
    expect(text).toContain(`${passed.name}: passed, but it sent no request and judged no exchange of the log`);
    expect(text).toMatch(new RegExp(`${escape(withFinding.name)}: the check \\S+ fails \\S+ on #\\d+, which the report does not record`));
    expect(text).toContain(`the log: #${first._seq} is marked cut, but its size on the wire (${first.response.content.size} bytes) is not above the`);
    expect(text).toMatch(/starts before #\d+|before the run/);
    const line = rejudgeCheck(report, har, CATALOG, CONTRACT, MADE_UP);
    expect(line.ok).toBe(false);
    expect(line.detail).toContain('1 entries of the log are marked summarised: a certified run logs every exchange whole');
  });

  it('a log that is not this suite’s HAR is refused, not read around', () => {
    const { report } = logged();
    expect(rejudge(report, { log: { entries: [{ request: {}, response: {} }] } }, CATALOG, CONTRACT, MADE_UP).differences).toEqual([
      "HAR entry 1 is not an entry of this suite's log (no _seq, time, request or response)",
    ]);
    expect(rejudge(report, [], CATALOG, CONTRACT, MADE_UP).differences).toEqual(['the exchange log is not a HAR log with entries']);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
