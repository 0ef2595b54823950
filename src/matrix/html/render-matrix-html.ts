import { formatInstant } from '../../report/html/format.ts';
import { htmlPage } from '../../report/html/page.ts';
import { html } from '../../report/html/safe-html.ts';
import { STYLES } from '../../report/html/styles.ts';
import { unicodeEscape } from '../render-markdown.ts';
import type { Matrix } from '../matrix-types.ts';
import { evidenceSection } from './evidence-section.ts';
import { MATRIX_SCRIPT } from './matrix-script.ts';
import { MATRIX_STYLES } from './matrix-styles.ts';
import { matrixTable } from './matrix-table.ts';
import { answers, detailsSection, historySection, rankingSection } from './summary-sections.ts';

/**
 * matrix.html: one self-contained page, in the report's shell (htmlPage). Every text from a bundle goes
 * through the `html` tag, so it is escaped.
 */
export function renderMatrixHtml(matrix: Matrix): string {
  const counted = matrix.implementations.filter((c) => c.counted).length;
  const notVerified = matrix.implementations.filter((c) => c.trust === 'not-verified').length;
  const content = html`<header>
<p class="kicker">Animal Store interface ${matrix.interface.version} · conformance matrix</p>
<h1>Which implementation conforms, requirement by requirement</h1>
<p class="lede">${counted} implementation${counted === 1 ? '' : 's'} compared${
    matrix.implementations.length > counted ? ` (${matrix.implementations.length} runs shown, older versions included)` : ''
  } · interface sha256 <span class="fp">${matrix.interface.sha256.slice(0, 12)}</span> · generated ${formatInstant(matrix.generatedAt)}${
    notVerified > 0 ? html` · <span class="trust trust-not-verified">${notVerified} NOT VERIFIED</span>` : ''
  }</p>
</header>
${answers(matrix)}
${rankingSection(matrix)}
${matrixTable(matrix)}
${historySection(matrix)}
${detailsSection(matrix)}
${evidenceSection(matrix)}
<footer>
  Generated ${formatInstant(matrix.generatedAt)} by animal-store-conformance matrix · format ${matrix.formatVersion} ·
  the same data is in matrix.json (schema: spec/matrix.schema.json), a summary in matrix.md, a badge per implementation in badges/.
</footer>`;
  const page = htmlPage({
    title: `Animal Store conformance matrix · ${matrix.implementations.length} implementation runs`,
    styles: STYLES + MATRIX_STYLES,
    script: MATRIX_SCRIPT,
    mainClass: 'matrix-page',
    content,
  });
  // The html tag shows the bidi overrides and isolates as \\uXXXX; the marks (LRM, RLM, ALM) reorder text too.
  return page.value.replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, unicodeEscape);
}
