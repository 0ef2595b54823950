import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../src/matrix/build-matrix.ts';
import { renderMatrixHtml } from '../../src/matrix/html/render-matrix-html.ts';
import { escapeMarkdown, renderMatrixMarkdown } from '../../src/matrix/render-markdown.ts';
import { badgeFileName } from '../../src/matrix/labels.ts';
import { HOSTILE, input } from '../support/matrix-runs.ts';

const AT = '2026-01-01T00:00:00.000Z';

describe('matrix renderers', () => {
  it('the pick names the implementations it cannot be told apart from', () => {
    const matrix = buildMatrix(
      [input('a', {}, { implementation: 'a@1' }), input('b', {}, { implementation: 'b@1' }), input('c', { failing: ['AUTH-002'] }, { implementation: 'c@1' })],
      {
        generatedAt: AT,
      },
    );
    const html = renderMatrixHtml(matrix);
    expect(html).toMatch(/<p class="label">Pick<\/p>\s*<p class="big">a 1 /);
    expect(html).toContain('Equally good: b 1.');
  });

  it('says so when nothing is conformant, and never picks a NOT VERIFIED input', () => {
    const matrix = buildMatrix(
      [input('c', { failing: ['AUTH-002'] }, { implementation: 'c@1' }), input('f', {}, { implementation: 'f@1', trust: 'not-verified' })],
      { generatedAt: AT },
    );
    const html = renderMatrixHtml(matrix);
    expect(html).toContain('No implementation is conformant; the closest');
    expect(html).toMatch(/<p class="big">c 1 /);
  });

  it('Markdown from bundles is inert: no link, image, HTML or table break', () => {
    expect(escapeMarkdown('[x](javascript:alert(1)) | <b> ![i](http://e/x.png)\nnext')).toBe(
      '\\[x\\]\\(javascript:alert\\(1\\)\\) \\| &lt;b&gt; \\!\\[i\\]\\(http://e/x.png\\) next',
    );
    const md = renderMatrixMarkdown(buildMatrix([input('h', { failing: ['AUTH-002'] }, { implementation: `${HOSTILE}@1` })], { generatedAt: AT }));
    expect(md).not.toMatch(/<script|<img|\]\(javascript:/);
    const rows = md.split('\n').filter((l) => l.startsWith('| 1 |'));
    expect(rows).toHaveLength(1);
    // the cells of the row are the 8 columns of the table, whatever the name holds
    expect(rows[0]?.split(/(?<!\\)\|/).length).toBe(10);
  });

  it('badge file names are safe and distinct', () => {
    const taken = new Set<string>();
    const names = ['Acme Pets', 'acme-pets', '../../etc/passwd', '<script>', ''].map((n) => {
      const file = badgeFileName(n, taken);
      taken.add(file);
      return file;
    });
    expect(names).toEqual(['acme-pets.svg', 'acme-pets-2.svg', 'etc-passwd.svg', 'script.svg', 'implementation.svg']);
  });
});
