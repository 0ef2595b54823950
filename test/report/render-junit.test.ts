import { describe, expect, it, test } from 'vitest';
import { buildReport } from '../../src/report/build-report.ts';
import { renderJunit, xmlText } from '../../src/report/render-junit.ts';
import { OPERATIONS, TINY_CATALOG, failed, passed, runInfo, skipped } from '../support/report-builders.ts';
import { HOSTILE, sampleReport } from '../support/sample-report.ts';
import { type XmlElement, parseXml } from './xml-check.ts';

const suites = (root: XmlElement) => root.children.filter((c) => c.name === 'testsuite');
const cases = (root: XmlElement) => suites(root).flatMap((s) => s.children.filter((c) => c.name === 'testcase'));
const caseFor = (root: XmlElement, id: string) => cases(root).find((c) => c.attributes.name?.startsWith(`${id} `))!;

describe('junit.xml', () => {
  test('is well-formed even with hostile text and control characters', () => {
    const { report } = sampleReport({ exchangesPerTest: 2, harnessErrors: true });
    const xml = renderJunit(report);
    expect(() => parseXml(xml)).not.toThrow();
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    // the text comes back exactly, minus the characters XML cannot carry
    // eslint-disable-next-line no-control-regex -- the hostile control characters are dropped from XML
    expect(caseFor(root, 'AUTH-002').children[0]!.text).toContain(HOSTILE.replace(/[\u0001\u001b]/g, ''));
  });

  test('one suite per area plus the verdict; one case per requirement, named "ID text", classname area', () => {
    const { report } = sampleReport({ exchangesPerTest: 1 });
    const root = parseXml(renderJunit(report));
    expect(suites(root).map((s) => s.attributes.name)).toEqual(['conformance', ...report.areas.map((a) => a.id)]);
    expect(cases(root)).toHaveLength(report.requirements.length + 1);
    const auth = caseFor(root, 'AUTH-002');
    expect(auth.attributes.classname).toBe('auth');
    const failure = auth.children.find((c) => c.name === 'failure')!;
    expect(failure.attributes.message).toMatch(/^expected getPet with an invalid key: status 401, got status 200/);
    expect(failure.text).toContain('Reproduce with: curl -sS -X GET');
    expect(caseFor(root, 'RATE-001').children[0]!.name).toBe('failure');
    expect(caseFor(root, 'RATE-007').children[0]).toMatchObject({
      name: 'skipped',
      attributes: { message: 'untested: not in the standard profile (needs thorough)' },
    });
    expect(caseFor(root, 'NS-001').children[0]!.name).toBe('skipped');
    expect(caseFor(root, 'STA-010').children[0]!.attributes.message).toMatch(/^known deviation/);
    expect(caseFor(root, 'LIM-001').children).toEqual([]);
    const verdict = suites(root)[0]!.children.find((c) => c.name === 'testcase')!;
    expect(verdict.children[0]!.name).toBe('failure');
  });

  test('a warning passes with a note; under --strict the SHOULD fails', () => {
    const tests = [passed('MUS-001'), passed('MUS-002'), failed('SHD-001', 'conformance'), passed('MAY-001')];
    const make = (strict: boolean) =>
      parseXml(renderJunit(buildReport({ runInfo: runInfo({ strict }), catalog: TINY_CATALOG, tests, harnessErrors: [], strict, operations: OPERATIONS })));
    expect(caseFor(make(false), 'SHD-001').children.map((c) => c.name)).toEqual(['system-out']);
    expect(caseFor(make(false), 'SHD-001').children[0]!.text).toMatch(/^WARNING/);
    expect(caseFor(make(true), 'SHD-001').children.map((c) => c.name)).toEqual(['failure']);
  });

  test('an incomplete run is an error of the verdict case', () => {
    const tests = [passed('MUS-001'), skipped('MUS-002', 'read-only mode'), failed('SHD-001', 'harness')];
    const root = parseXml(
      renderJunit(buildReport({ runInfo: runInfo(), catalog: TINY_CATALOG, tests, harnessErrors: [], strict: false, operations: OPERATIONS })),
    );
    expect(root.attributes.errors).toBe('1');
    const verdict = suites(root)[0]!.children.find((c) => c.name === 'testcase')!;
    expect(verdict.children[0]).toMatchObject({ name: 'error', attributes: { type: 'INCOMPLETE' } });
  });

  test('a partial run passes the verdict case with the untested list, and fails it when completeness is required', () => {
    const tests = [
      passed('MUS-001'),
      skipped('MUS-002', 'not in the quick profile (needs --profile standard)', 'profile'),
      passed('SHD-001'),
      passed('MAY-001'),
    ];
    const make = (requireComplete: boolean) =>
      parseXml(
        renderJunit(
          buildReport({ runInfo: runInfo({ requireComplete }), catalog: TINY_CATALOG, tests, harnessErrors: [], strict: false, operations: OPERATIONS }),
        ),
      );
    const verdictCase = (root: ReturnType<typeof parseXml>) => suites(root)[0]!.children.find((c) => c.name === 'testcase')!;
    const lenient = verdictCase(make(false));
    expect(lenient.attributes.name).toBe('Overall verdict: PARTIAL');
    expect(lenient.children[0]).toMatchObject({ name: 'system-out' });
    expect(lenient.children[0]!.text).toContain('MUS-002 MUST: not in the quick profile (needs --profile standard) — use --profile standard');
    const strictRoot = make(true);
    expect(verdictCase(strictRoot).children[0]!.name).toBe('failure');
    expect(strictRoot.attributes.failures).toBe('1');
    expect(caseFor(strictRoot, 'MUS-002').children[0]).toMatchObject({ name: 'skipped' });
  });

  test('the checker itself rejects what is not well-formed', () => {
    for (const bad of ['<a><b></a></b>', '<a x="1" x="2"/>', '<a>&nbsp;</a>', '<a>\u0001</a>', '<a/><b/>', '<a>']) {
      expect(() => parseXml(bad), bad).toThrow();
    }
  });
});

describe('junit.xml: text a CI console would act on', () => {
  it('shows C1 controls (CSI), bidi overrides and zero-width characters escaped', () => {
    const out = xmlText('ct \u009b31m \u202eevil\u202c \u200b end');
    expect(out).toBe('ct \\x9b31m \\u202eevil\\u202c \\u200b end');
    expect(out).not.toMatch(/[\u0080-\u009f\u200b-\u200f\u202a-\u202e]/);
  });
});
