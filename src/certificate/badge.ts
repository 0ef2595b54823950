import type { ConformanceReport } from '../report/report-types.ts';

export const BADGE_FILE = 'badge.svg';

const COLOURS: Record<ConformanceReport['verdict']['overall'], string> = {
  conformant: '#2e7d32',
  partial: '#b26a00',
  'not-conformant': '#c62828',
  incomplete: '#616161',
};

// Verdana-like widths at 11 px, generous enough for any label the suite writes.
const CHAR_PX = 7;
const PAD_PX = 10;
const HEIGHT = 20;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The certification badge: "Animal Store v1 | <VERDICT> · <suite version> · <date>", 20 px high, one
 * self-contained SVG (no fonts, images or links to fetch), with a title for screen readers.
 */
export function renderBadge(report: ConformanceReport): string {
  const left = `Animal Store ${report.run.specVersion}`;
  const right = `${report.verdict.label} · suite ${report.run.suiteVersion} · ${report.run.endedAt.slice(0, 10)}`;
  const leftWidth = left.length * CHAR_PX + 2 * PAD_PX;
  const rightWidth = right.length * CHAR_PX + 2 * PAD_PX;
  const width = leftWidth + rightWidth;
  const colour = COLOURS[report.verdict.overall];
  const title = escape(`${left}: ${right}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${title}">
<title>${title}</title>
<clipPath id="r"><rect width="${width}" height="${HEIGHT}" rx="3"/></clipPath>
<g clip-path="url(#r)">
<rect width="${leftWidth}" height="${HEIGHT}" fill="#37474f"/>
<rect x="${leftWidth}" width="${rightWidth}" height="${HEIGHT}" fill="${colour}"/>
</g>
<g fill="#fff" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" font-size="11" text-anchor="middle">
<text x="${leftWidth / 2}" y="14">${escape(left)}</text>
<text x="${leftWidth + rightWidth / 2}" y="14">${escape(right)}</text>
</g>
</svg>
`;
}

/** The Markdown that shows the badge, linked to the bundle's HTML report. */
export function badgeMarkdown(report: ConformanceReport): string {
  return `[![Animal Store ${report.run.specVersion}: ${report.verdict.label}](${BADGE_FILE})](conformance.html)`;
}
