import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../../src/matrix/build-matrix.ts';
import { renderMatrixHtml } from '../../../src/matrix/html/render-matrix-html.ts';
import { htmlPage } from '../../../src/report/html/page.ts';
import { html } from '../../../src/report/html/safe-html.ts';
import { renderHtml } from '../../../src/report/render-html.ts';
import { input } from '../../support/matrix-runs.ts';
import { sampleReport } from '../../support/sample-report.ts';

/** The page's one inline script, and the hash its Content-Security-Policy admits. */
function scriptAndPolicy(page: string): { script: string; admitted: string[] } {
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
  expect(scripts).toHaveLength(1);
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1] ?? '';
  return { script: scripts[0] ?? '', admitted: [...policy.matchAll(/sha256-([A-Za-z0-9+/=]+)/g)].map((match) => match[1] ?? '') };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** Everything before the title: the shell's head, the same on every page of the suite. */
const headOf = (page: string) =>
  page
    .slice(0, page.indexOf('<title>'))
    .replace(/sha256-[A-Za-z0-9+/=]+/, 'sha256-…')
    .replace(/<meta name="generator"[^>]*>\n/, '');

describe('htmlPage: the one shell of the report and the matrix', () => {
  it('admits exactly its own script by hash, escapes the title and wraps the content in main', () => {
    const page = htmlPage({ title: '<b>x</b>', styles: 'p{}', script: 'void 0;', mainClass: 'wide', content: html`<p>${'<i>'}</p>` }).value;
    const { script, admitted } = scriptAndPolicy(page);
    expect(admitted).toEqual([sha256(script)]);
    expect(script).toBe('void 0;');
    expect(page).toContain('<title>&lt;b&gt;x&lt;/b&gt;</title>');
    expect(page).toContain('<main class="wide">\n<p>&lt;i&gt;</p>\n</main>');
    expect(page).not.toContain('name="generator"');
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
  });

  it('gives the report and the matrix the same head and a policy that admits each page its script', () => {
    const report = renderHtml(sampleReport({ exchangesPerTest: 1 }).report);
    const matrix = renderMatrixHtml(buildMatrix([input('a', {}, { implementation: 'alpha@1.0.0' })], { generatedAt: '2026-01-01T00:00:00.000Z' }));
    for (const page of [report, matrix]) {
      const { script, admitted } = scriptAndPolicy(page);
      expect(admitted).toEqual([sha256(script)]);
    }
    expect(headOf(matrix)).toBe(headOf(report));
    expect(report).toContain('<meta name="generator" content="animal-store-conformance ');
    expect(matrix).toContain('<main class="matrix-page">');
  });
});
