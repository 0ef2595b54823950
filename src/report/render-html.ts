import { createHash } from 'node:crypto';
import { areaBars } from './html/area-bars.ts';
import { CLIENT_SCRIPT } from './html/client-script.ts';
import { formatInstant } from './html/format.ts';
import { requirementList } from './html/requirement-list.ts';
import { rootCauseSection } from './html/root-cause-section.ts';
import { coverageSection, runMetadata, trafficSection } from './html/run-sections.ts';
import { html, trusted } from './html/safe-html.ts';
import { STYLES } from './html/styles.ts';
import { countsTable, runNotes, verdictBanner } from './html/verdict-banner.ts';
import type { ConformanceReport } from './report-types.ts';
import { rootCauses } from './root-causes.ts';

/**
 * conformance.html: one self-contained file (inline CSS, script and SVG; no network, no external font),
 * readable offline and printable. Its Content-Security-Policy admits only its own script, by hash, and
 * no connection at all: even a rendering bug could not make it run a target's script or phone home.
 * Order: the verdict, the failures by probable cause, each area's bar, the failures themselves; the
 * caveats (untested scope, harness errors, deviations) and the counts after them.
 */
export function renderHtml(report: ConformanceReport): string {
  const scriptHash = createHash('sha256').update(CLIENT_SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const causes = rootCauses(report);
  const title = `${report.verdict.label} · ${report.run.target.url} · Animal Store conformance report`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="generator" content="animal-store-conformance ${report.run.suiteVersion}">
<title>${title}</title>
<style>${trusted(STYLES)}</style>
</head>
<body>
<main>
${verdictBanner(report, causes)}
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
</footer>
</main>
<script>${trusted(CLIENT_SCRIPT)}</script>
</body>
</html>
`;
  return page.value;
}
