import { describe, it } from 'vitest';
import { rootCauseSection } from '../../../src/report/html/root-cause-section.ts';
import { verdictBanner } from '../../../src/report/html/verdict-banner.ts';
import type { ConformanceReport } from '../../../src/report/report-types.ts';
import type { RootCause } from '../../../src/report/root-causes.ts';
import { sampleReport } from '../../support/sample-report.ts';

type Verdict = 'fail' | 'deviation' | 'warn';

/** A report whose requirements have these verdicts, and causes grouping them as given (ids A1, A2…). */
function fixture(groups: readonly (readonly Verdict[])[]): { report: ConformanceReport; causes: RootCause[] } {
  const base = sampleReport({ exchangesPerTest: 1 }).report;
  let n = 0;
  const causes = groups.map((verdicts, i): RootCause => ({
    key: `cause-${i}`,
    kind: 'check',
    summary: `cause ${i}`,
    requirements: verdicts.map((verdict) => ({ id: `A${(n += 1)}`, level: 'MUST', verdict })),
    untested: [],
  }));
  const explained = causes.flatMap((c) => c.requirements);
  const requirements = explained.map((r) => ({ ...(base.requirements[0] as ConformanceReport['requirements'][number]), id: r.id, verdict: r.verdict }));
  return { report: { ...base, requirements }, causes };
}

const legendOf = (report: ConformanceReport, causes: RootCause[]) =>
  /<p class="legend">([^,]*(?:, [^,]*)*?), grouped by/.exec(rootCauseSection(report, causes)?.value ?? '')?.[1];

describe('the causes section counts as the banner does', () => {
  it("failures and warnings: the banner's numbers first, then all the requirements the causes explain", ({ expect }) => {
    // Two causes of failures (three requirements, one of them also explaining a warning), one of a warning only.
    const { report, causes } = fixture([['fail', 'fail', 'warn'], ['deviation'], ['warn']]);
    expect(verdictBanner(report, causes).value).toContain('3 failing requirements come down to <a href="#causes-title">2 probable causes</a>');
    expect(legendOf(report, causes)).toBe(
      '3 failing requirements come down to 2 probable causes; with the 2 requirements that only warn, 5 requirements come down to 3 probable causes',
    );
  });

  it("failures only: the banner's sentence, and nothing more", ({ expect }) => {
    const { report, causes } = fixture([['fail'], ['fail', 'fail']]);
    expect(legendOf(report, causes)).toBe('3 failing requirements come down to 2 probable causes');
  });

  it('one failure and one warning', ({ expect }) => {
    const { report, causes } = fixture([['fail'], ['warn']]);
    expect(legendOf(report, causes)).toBe(
      '1 failing requirement has 1 probable cause; with the 1 requirement that only warns, 2 requirements come down to 2 probable causes',
    );
  });

  it('warnings only', ({ expect }) => {
    const { report, causes } = fixture([['warn', 'warn'], ['warn']]);
    expect(verdictBanner(report, causes).value).not.toContain('cause-line');
    expect(legendOf(report, causes)).toBe('3 requirements with a warning come down to 2 probable causes');
  });
});
