import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderBadge } from '../certificate/badge.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { renderMatrixHtml } from './html/render-matrix-html.ts';
import type { Matrix, MatrixInput } from './matrix-types.ts';
import { badgedColumns, renderMatrixMarkdown, unicodeEscape } from './render-markdown.ts';

export const MATRIX_FILES = { html: 'matrix.html', json: 'matrix.json', markdown: 'matrix.md', badges: 'badges' } as const;

/** matrix.json: the matrix as data (spec/matrix.schema.json). */
export function renderMatrixJson(matrix: Matrix): string {
  // The same value, with every control, bidi or separator character written as a \u escape.
  return `${JSON.stringify(matrix, null, 2).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => (c === '\n' ? c : unicodeEscape(c)))}\n`;
}

/**
 * The badge of a column, drawn by the report's own badge renderer from its report. An unsigned input's
 * badge says so; a NOT VERIFIED input gets none (badgedColumns leaves it out).
 */
export function badgeOf(report: ConformanceReport, unsigned: boolean): string {
  return renderBadge(unsigned ? { ...report, verdict: { ...report.verdict, label: `${report.verdict.label} (unsigned)` } } : report);
}

/** Writes matrix.html, matrix.json, matrix.md and badges/<implementation>.svg into `dir`; returns the paths. */
export function writeMatrix(matrix: Matrix, inputs: readonly MatrixInput[], dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    written.push(path);
  };
  write(MATRIX_FILES.html, renderMatrixHtml(matrix));
  write(MATRIX_FILES.json, renderMatrixJson(matrix));
  write(MATRIX_FILES.markdown, renderMatrixMarkdown(matrix));
  const badgeDir = join(dir, MATRIX_FILES.badges);
  mkdirSync(badgeDir, { recursive: true });
  // Badges of an earlier matrix in the same directory would otherwise outlive their implementation.
  for (const old of readdirSync(badgeDir).filter((name) => name.endsWith('.svg'))) rmSync(join(badgeDir, old));
  for (const column of badgedColumns(matrix)) {
    const input = inputs.find((i) => i.source === column.source);
    if (!input) continue;
    write(join(MATRIX_FILES.badges, column.badge), badgeOf(input.report, column.trust !== 'verified'));
  }
  return written;
}
