import type { ConformanceReport, FailureDetail, RequirementResult } from './report-types.ts';

/**
 * junit.xml for CI: a leading "conformance" suite whose one case carries the run's verdict, then one
 * testsuite per area and one testcase per requirement. Warnings pass with a note (they fail under
 * --strict, where their verdict is already fail); untested, partly tested, out-of-scope and declared
 * deviations are skipped. A PARTIAL run fails the verdict case only when completeness was required.
 */
export function renderJunit(report: ConformanceReport): string {
  const byArea = report.areas.map((area) => ({ area, requirements: report.requirements.filter((r) => r.area === area.id) }));
  const suites = byArea.filter((s) => s.requirements.length > 0).map(({ area, requirements }) => areaSuite(area.id, area.title, requirements, report));
  const all = report.requirements;
  const failures = all.filter((r) => r.verdict === 'fail').length + (verdictFails(report) ? 1 : 0);
  const errors = report.verdict.overall === 'incomplete' ? 1 : 0;
  const skipped = all.filter(isSkipped).length;
  const time = seconds(Date.parse(report.run.endedAt) - Date.parse(report.run.startedAt));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Animal Store conformance" tests="${all.length + 1}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}">`,
    verdictSuite(report),
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** The verdict case fails for NOT CONFORMANT, and for PARTIAL when the run required completeness (exit 1). */
function verdictFails(report: ConformanceReport): boolean {
  return report.verdict.overall === 'not-conformant' || (report.verdict.overall === 'partial' && report.verdict.exitCode === 1);
}

function verdictSuite(report: ConformanceReport): string {
  const { verdict } = report;
  const untested = verdict.scope.untested.map((u) => `${u.id} ${u.level}: ${u.reason} — ${u.cover}`);
  const body = verdictFails(report)
    ? `      <failure message="${attr(verdict.why)}" type="${attr(verdict.label)}">${text([verdict.why, ...verdict.notes, ...untested].join('\n'))}</failure>`
    : verdict.overall === 'incomplete'
      ? `      <error message="${attr(verdict.why)}" type="INCOMPLETE">${text(report.harnessErrors.map((e) => `${e.code}: ${e.message}`).join('\n'))}</error>`
      : `      <system-out>${text([verdict.why, ...untested].join('\n'))}</system-out>`;
  return [
    `  <testsuite name="conformance" tests="1" failures="${verdictFails(report) ? 1 : 0}" errors="${verdict.overall === 'incomplete' ? 1 : 0}" skipped="0" timestamp="${attr(report.run.startedAt.slice(0, 19))}">`,
    properties(report),
    `    <testcase classname="conformance" name="${attr(`Overall verdict: ${verdict.label}`)}" time="0">`,
    body,
    '    </testcase>',
    '  </testsuite>',
  ].join('\n');
}

function areaSuite(id: string, title: string, requirements: readonly RequirementResult[], report: ConformanceReport): string {
  const failures = requirements.filter((r) => r.verdict === 'fail').length;
  const skipped = requirements.filter(isSkipped).length;
  const time = requirements.reduce((sum, r) => sum + r.tests.reduce((s, t) => s + t.durationMs, 0), 0);
  return [
    `  <testsuite name="${attr(id)}" tests="${requirements.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${attr(report.run.startedAt.slice(0, 19))}">`,
    `    <properties><property name="area" value="${attr(title)}"/></properties>`,
    ...requirements.map((r) => testcase(r)),
    '  </testsuite>',
  ].join('\n');
}

function testcase(r: RequirementResult): string {
  const time = seconds(r.tests.reduce((s, t) => s + t.durationMs, 0));
  const open = `    <testcase classname="${attr(r.area)}" name="${attr(`${r.id} ${r.text}`)}" time="${time}">`;
  const inner: string[] = [];
  if (r.verdict === 'fail') {
    const first = r.failures[0];
    inner.push(
      `      <failure message="${attr(first ? summary(first) : 'failed')}" type="${r.level}">${text(r.failures.map(failureText).join('\n\n'))}</failure>`,
    );
  } else if (r.verdict === 'deviation') {
    inner.push(`      <skipped message="${attr(`known deviation (would be ${r.deviationOf ?? 'fail'}): ${r.reason ?? ''}`)}"/>`);
    inner.push(`      <system-out>${text(r.failures.map(failureText).join('\n\n'))}</system-out>`);
  } else if (r.verdict === 'skipped' || r.verdict === 'partial' || r.verdict === 'not-covered') {
    inner.push(
      `      <skipped message="${attr(`${r.verdict === 'not-covered' ? 'out of scope' : r.verdict === 'partial' ? 'partly tested' : 'untested'}: ${r.reason ?? ''}`)}"/>`,
    );
  } else if (r.verdict === 'warn') {
    inner.push(
      `      <system-out>${text(`${r.level === 'ADVISORY' ? 'ADVISORY (a standard beyond the interface asks this; never affects the verdict, not even with --strict)' : `WARNING (${r.level} not met, does not affect the verdict)`}\n\n${r.failures.map(failureText).join('\n\n')}`)}</system-out>`,
    );
  }
  if (inner.length === 0) return `${open.slice(0, -1)}/>`;
  return [open, ...inner, '    </testcase>'].join('\n');
}

function isSkipped(r: RequirementResult): boolean {
  return r.verdict === 'skipped' || r.verdict === 'partial' || r.verdict === 'not-covered' || r.verdict === 'deviation';
}

function summary(f: FailureDetail): string {
  return f.expected !== undefined ? `expected ${f.expected}, got ${f.actual ?? '?'}` : f.message;
}

function failureText(f: FailureDetail): string {
  const lines = [`${f.origin === 'finding' ? `check ${f.check ?? ''} (seen ${f.occurrences}×)` : 'test'}: ${f.testName}`];
  if (f.expected !== undefined) lines.push(`expected: ${f.expected}`, `actual:   ${f.actual ?? '?'}`);
  else lines.push(f.message);
  if (f.property) {
    lines.push(`property: seed ${f.property.seed}${f.property.path ? `, path ${f.property.path}` : ''}`);
    if (f.property.counterexample) lines.push(`counterexample: ${f.property.counterexample}`);
  }
  if (f.curl) lines.push(`Reproduce with: ${f.curl}`);
  return lines.join('\n');
}

function properties(report: ConformanceReport): string {
  const { run, verdict } = report;
  const entries: Array<[string, string]> = [
    ['verdict', verdict.overall],
    ['target', run.target.url],
    ['profile', run.profile],
    ['seed', String(run.seed)],
    ['strict', String(run.strict)],
    ['spec.version', run.specVersion],
    ['spec.sha256', run.specSha256],
    ['suite.version', run.suiteVersion],
    ['command', run.command],
  ];
  return `    <properties>${entries.map(([n, v]) => `<property name="${attr(n)}" value="${attr(v)}"/>`).join('')}</properties>`;
}

function seconds(ms: number): string {
  return Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0';
}

/** Characters XML 1.0 forbids (controls, lone surrogates, U+FFFE/FFFF) are dropped. */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Characters XML allows but a CI console would act on when it prints a failure (C1 controls such as CSI,
 * bidi overrides, zero-width and line separators): shown escaped, as the console sanitiser shows them.
 */
const CONSOLE_ACTIVE = /[\u0080-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

export function xmlText(value: string): string {
  return value
    .replace(INVALID_XML, '')
    .replace(CONSOLE_ACTIVE, (c) => (c.charCodeAt(0) < 0x100 ? `\\x${c.charCodeAt(0).toString(16)}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function text(value: string): string {
  return xmlText(value);
}

function attr(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
