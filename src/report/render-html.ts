import { areaBars } from './html/area-bars.ts';
import { CLIENT_SCRIPT } from './html/client-script.ts';
import { formatInstant } from './html/format.ts';
import { requirementList } from './html/requirement-list.ts';
import { rootCauseSection } from './html/root-cause-section.ts';
import { coverageSection, runMetadata, trafficSection } from './html/run-sections.ts';
import { htmlPage } from './html/page.ts';
import { html } from './html/safe-html.ts';
import { STYLES } from './html/styles.ts';
import { countsTable, runNotes, verdictBanner } from './html/verdict-banner.ts';
import type { ConformanceReport } from './report-types.ts';
import { rootCauses } from './root-causes.ts';

/**
 * conformance.html: one self-contained file (htmlPage: inline CSS, script and SVG; no network, its own
 * script only), readable offline and printable.
 * Order: the verdict, the failures by probable cause, each area's bar, the failures themselves; the
 * caveats (untested scope, harness errors, deviations) and the counts after them.
 */
export function renderHtml(report: ConformanceReport): string {
  const causes = rootCauses(report);
  const content = html`${verdictBanner(report, causes)}
${rootCauseSection(report, causes)}
${areaBars(report)}
${requirementList(report)}
${runNotes(report)}
${countsTable(report)}
${coverageSection(report)}
${trafficSection(report)}
${runMetadata(report)}
<footer>
  Generated ${formatInstant(report.run.endedAt)} by animal-store-conformance ${report.run.suiteVersion} · report format ${report.formatVersion} ·
  the same data is in conformance.json (schema: spec/report.schema.json) and junit.xml.
</footer>`;
  return htmlPage({
    title: `${report.verdict.label} · ${report.run.target.url} · Animal Store conformance report`,
    generator: `animal-store-conformance ${report.run.suiteVersion}`,
    styles: STYLES,
    script: CLIENT_SCRIPT,
    content,
  }).value;
}
