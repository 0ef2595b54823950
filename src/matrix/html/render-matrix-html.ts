import { createHash } from 'node:crypto';
import { formatInstant } from '../../report/html/format.ts';
import { html, trusted } from '../../report/html/safe-html.ts';
import { STYLES } from '../../report/html/styles.ts';
import { unicodeEscape } from '../render-markdown.ts';
import type { Matrix } from '../matrix-types.ts';
import { evidenceSection } from './evidence-section.ts';
import { MATRIX_SCRIPT } from './matrix-script.ts';
import { MATRIX_STYLES } from './matrix-styles.ts';
import { matrixTable } from './matrix-table.ts';
import { answers, detailsSection, historySection, rankingSection } from './summary-sections.ts';

/**
 * matrix.html: one self-contained page (inline CSS and script, no network, no external font). Every
 * text from a bundle goes through the `html` tag, so it is escaped; the Content-Security-Policy admits
 * only the page's own script, by hash, and no connection at all, as the report's does.
 */
export function renderMatrixHtml(matrix: Matrix): string {
  const scriptHash = createHash('sha256').update(MATRIX_SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const counted = matrix.implementations.filter((c) => c.counted).length;
  const notVerified = matrix.implementations.filter((c) => c.trust === 'not-verified').length;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Animal Store conformance matrix · ${matrix.implementations.length} implementation runs</title>
<style>${trusted(STYLES)}${trusted(MATRIX_STYLES)}</style>
</head>
<body>
<main class="matrix-page">
<header>
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
</footer>
</main>
<script>${trusted(MATRIX_SCRIPT)}</script>
</body>
</html>
`;
  // The html tag shows the bidi overrides and isolates as \\uXXXX; the marks (LRM, RLM, ALM) reorder text too.
  return page.value.replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, unicodeEscape);
}
