import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { browserOutputDir, launchChromium } from '../support/browser.ts';
import { buildMatrix } from '../../src/matrix/build-matrix.ts';
import type { MatrixInput } from '../../src/matrix/matrix-types.ts';
import { writeMatrix } from '../../src/matrix/write-matrix.ts';
import { HOSTILE, input } from '../support/matrix-runs.ts';

/** Six implementations (one at two versions), one not verified, markup in a name and in evidence. */
function inputs(): MatrixInput[] {
  return [
    input('bundles/acme', { failing: ['AUTH-002', 'LIM-001', 'RATE-004'] }, { implementation: 'acme-pets@3.1.0', signer: { fingerprint: 'a'.repeat(64) } }),
    input('bundles/zoo-1', { failing: ['AUTH-002', 'ERR-001'], minute: 1 }, { implementation: 'zoo-api@1.0.0', signer: { fingerprint: 'b'.repeat(64) } }),
    input('bundles/zoo-2', { failing: ['ERR-003'], minute: 9 }, { implementation: 'zoo-api@1.1.0', signer: { fingerprint: 'b'.repeat(64) } }),
    input('bundles/petshop', {}, { implementation: 'petshop@2.4.0', signer: { fingerprint: 'c'.repeat(64) } }),
    input('bundles/hostile', { failing: ['AUTH-002'], failureText: HOSTILE }, { implementation: `${HOSTILE}@0.0.1`, signer: { fingerprint: 'd'.repeat(64) } }),
    input(
      'bundles/kennel',
      { skipped: ['RATE-007', 'RATE-008'] },
      { implementation: 'kennel-store-with-a-rather-long-name@10.0.0-beta.3', trust: 'unsigned-bundle' },
    ),
    input(
      'bundles/forged',
      {},
      { implementation: 'forged-store@9.9.9', trust: 'not-verified', problems: ['attested files: changed since signing: conformance.json'] },
    ),
  ];
}

test('matrix.html in a browser: the answer first, filters work, hostile text inert, no page-wide horizontal scroll on a phone', async (ctx) => {
  const browser = await launchChromium(ctx);
  const dir = browserOutputDir('MATRIX_BROWSER_OUT', 'matrix-html-');
  const given = inputs();
  const matrix = buildMatrix(given, { generatedAt: '2026-01-01T12:00:00.000Z', outDir: dir });
  writeMatrix(matrix, given, dir);
  const url = pathToFileURL(join(dir, 'matrix.html')).href;

  for (const [label, width] of [
    ['desktop', 1280],
    ['phone', 390],
  ] as const) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) problems.push(`network: ${request.url()}`);
    });
    await page.goto(url);

    // The two answers are on the first screen: which to pick, which requirement fails most.
    const pick = page.locator('.answer > div').first();
    expect(await pick.textContent()).toContain('petshop 2.4.0');
    expect(await pick.boundingBox().then((b) => (b?.y ?? 1e9) + (b?.height ?? 0))).toBeLessThan(900);
    const worst = page.locator('.answer > div').nth(1);
    expect(await worst.textContent()).toMatch(/AUTH-002[\s\S]*fails in 2 of 5 implementations/);
    expect(await worst.boundingBox().then((b) => b?.y ?? 1e9)).toBeLessThan(900);

    // No horizontal scroll of the page; the table scrolls in its own box.
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(width);
    const box = await page.locator('.table-box').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    if (label === 'phone') expect(box.scroll).toBeGreaterThan(box.client);

    // Filters: a matrix with failures opens on them; All, MUST only and an area narrow it as they say.
    const visible = () => page.locator('tr.req-row:visible').evaluateAll((rows) => rows.map((r) => r.querySelector('th a')?.textContent ?? ''));
    const failing = matrix.requirements.filter((r) => r.failingAnywhere).map((r) => r.id);
    expect((await visible()).sort()).toEqual([...failing].sort());
    await page.click('button[data-scope="all"]');
    expect(await visible()).toHaveLength(matrix.requirements.length);
    await page.check('#must-only');
    expect((await visible()).sort()).toEqual(
      matrix.requirements
        .filter((r) => r.level === 'MUST')
        .map((r) => r.id)
        .sort(),
    );
    await page.selectOption('#area-filter', 'auth');
    expect((await visible()).sort()).toEqual(
      matrix.requirements
        .filter((r) => r.level === 'MUST' && r.area === 'auth')
        .map((r) => r.id)
        .sort(),
    );
    expect(await page.locator('#shown-count').textContent()).toMatch(/^\d+ of \d+ requirements shown$/);
    await page.uncheck('#must-only');
    await page.selectOption('#area-filter', '');
    await page.click('button[data-scope="failing"]');

    // A failing cell links to its evidence, with the curl line.
    const cell = page.locator('td.cell-fail a').first();
    const href = await cell.getAttribute('href');
    await cell.click();
    const evidence = page.locator(href ?? '#none');
    expect(await evidence.isVisible()).toBe(true);
    expect(await evidence.locator('pre.curl').textContent()).toContain('curl -sS');

    // The history and the NOT VERIFIED column are shown as such.
    expect(await page.locator('#history-title').isVisible()).toBe(true);
    expect(await page.locator('.history-list').textContent()).toMatch(/zoo-api 1\.0\.0 → 1\.1\.0[\s\S]*Fixed: ERR-001, AUTH-002. Other changes: ERR-003/);
    expect(await page.locator('th.col-not-verified').textContent()).toContain('NOT VERIFIED');

    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('text=<script>window.__xss = 1</script>').count()).toBeGreaterThan(0);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(dir, `matrix-${label}.png`) });
    await page.locator('#matrix-title').scrollIntoViewIfNeeded();
    await page.evaluate("document.getElementById('matrix-title').scrollIntoView()");
    await page.screenshot({ path: join(dir, `matrix-${label}-table.png`) });
    expect(problems).toEqual([]);
    await page.close();
  }
});
