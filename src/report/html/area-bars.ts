import type { ConformanceReport, RequirementVerdict } from '../report-types.ts';
import { type SafeHtml, html } from './safe-html.ts';

/** One area's requirements in scope: fully tested (passed, failed, warned) or not. */
export interface AreaTally {
  id: string;
  title: string;
  inScope: number;
  passed: number;
  failed: number;
  warned: number;
  untested: number;
}

const SEGMENT: Readonly<Record<Exclude<RequirementVerdict, 'not-covered'>, keyof Omit<AreaTally, 'id' | 'title' | 'inScope'>>> = {
  pass: 'passed',
  fail: 'failed',
  deviation: 'failed',
  warn: 'warned',
  partial: 'untested',
  skipped: 'untested',
};

export function areaTallies(report: ConformanceReport): AreaTally[] {
  return report.areas
    .map((area) => {
      const tally: AreaTally = { id: area.id, title: area.title, inScope: 0, passed: 0, failed: 0, warned: 0, untested: 0 };
      for (const r of report.requirements) {
        if (r.area !== area.id || r.verdict === 'not-covered') continue;
        tally.inScope += 1;
        tally[SEGMENT[r.verdict]] += 1;
      }
      return tally;
    })
    .filter((t) => t.inScope > 0);
}

/** Per area, a bar of passed, failed, warned and untested requirements: where the trouble is, at a glance. */
export function areaBars(report: ConformanceReport): SafeHtml {
  const tallies = areaTallies(report);
  const share = (n: number, of: number) => `${((n / of) * 100).toFixed(2)}%`;
  return html`<section class="area-summary" aria-labelledby="area-summary-title">
  <h2 id="area-summary-title">By area</h2>
  <ul class="area-bars">${tallies.map((t) => {
    const tested = t.passed + t.failed + t.warned;
    const words = [`${tested} of ${t.inScope} tested`, `${t.passed} passed`, t.failed > 0 ? `${t.failed} failed` : '', t.warned > 0 ? `${t.warned} warned` : '']
      .filter(Boolean)
      .join(' · ');
    return html`<li class="area-bar" data-area="${t.id}">
      <a class="area-name" href="#area-${t.id}" title="${t.id}: ${t.title}">${t.id} <span class="area-title">${t.title}</span></a>
      <span class="bar" role="img" aria-label="${t.id}: ${words}">${(['passed', 'failed', 'warned', 'untested'] as const).map((part) =>
        t[part] > 0 ? html`<span class="seg seg-${part}" style="width:${share(t[part], t.inScope)}"></span>` : undefined,
      )}</span>
      <span class="area-counts">${words}</span>
    </li>`;
  })}</ul>
  <p class="legend"><span class="key"><span class="swatch seg-passed"></span>passed</span> <span class="key"><span class="swatch seg-failed"></span>failed</span> <span class="key"><span class="swatch seg-warned"></span>warned</span> <span class="key"><span class="swatch seg-untested"></span>untested or partly tested</span> · requirements in scope; out-of-scope ones are left out.</p>
</section>`;
}
