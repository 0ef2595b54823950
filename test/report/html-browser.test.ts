import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { browserOutputDir, launchChromium } from '../support/browser.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { sampleReport } from '../support/sample-report.ts';

test('the HTML report works in a browser: no console error, filters, search, inert hostile text, print shows all', async (ctx) => {
  const browser = await launchChromium(ctx);
  const dir = browserOutputDir('REPORT_BROWSER_OUT', 'conformance-html-');
  const { report } = sampleReport({ exchangesPerTest: 40 });
  writeReports(report, dir);

  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) problems.push(`network: ${request.url()}`);
  });
  await page.goto(pathToFileURL(join(dir, 'conformance.html')).href);

  const visibleIds = () => page.locator('article.req:visible').evaluateAll((els) => els.map((el) => el.getAttribute('data-id')));
  const failing = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'deviation').map((r) => r.id);

  expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('h1').textContent()).toBe('NOT CONFORMANT');
  // A failing report opens on its failures.
  expect(await page.locator('button[data-filter="failed"]').getAttribute('aria-pressed')).toBe('true');
  expect((await visibleIds()).sort()).toEqual([...failing].sort());

  await page.click('button[data-filter="all"]');
  expect(await visibleIds()).toHaveLength(report.requirements.length);
  await page.click('button[data-filter="failed"]');
  expect(await page.locator('button[data-filter="failed"]').getAttribute('aria-pressed')).toBe('true');
  expect((await visibleIds()).sort()).toEqual([...failing].sort());
  expect(await page.locator('#req-LIM-001').isVisible()).toBe(false);
  await page.screenshot({ path: join(dir, 'conformance-failed.png') });

  // printing shows every requirement, whatever the filter
  await page.emulateMedia({ media: 'print' });
  expect(await page.locator('#req-LIM-001').isVisible()).toBe(true);
  expect(await page.locator('.controls').isVisible()).toBe(false);
  await page.emulateMedia({ media: 'screen' });

  await page.click('button[data-filter="all"]');
  await page.fill('#requirement-search', 'AUTH-002');
  expect(await visibleIds()).toEqual(['AUTH-002']);
  expect(await page.locator('#shown-count').textContent()).toBe(`1 of ${report.requirements.length} shown`);
  await page.fill('#requirement-search', 'zzz-no-such-thing');
  expect(await page.locator('#empty-result').isVisible()).toBe(true);
  await page.fill('#requirement-search', '');

  const copy = page.locator('#req-AUTH-002 button.copy').first();
  await copy.click();
  // the copy is asynchronous (clipboard API, else the execCommand fallback)
  await expect.poll(() => copy.textContent()).toMatch(/^(Copied|Press Ctrl\+C)$/);

  await page.screenshot({ path: join(dir, 'conformance.png'), fullPage: true });
  expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
  expect(problems).toEqual([]);
});

test('the report reads on a phone and stays short: no horizontal scroll at 390 px, one exchange open per failure', async (ctx) => {
  const browser = await launchChromium(ctx);
  const dir = browserOutputDir('REPORT_BROWSER_OUT', 'conformance-html-');
  const { report } = sampleReport({ exchangesPerTest: 40 });
  writeReports(report, dir);
  const failures = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'deviation').length;
  const measured: Record<string, number> = {};
  for (const width of [390, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: 844 } });
    await page.goto(pathToFileURL(join(dir, 'conformance.html')).href);
    const { scrollWidth, height } = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; scrollHeight: number } } }).document.documentElement;
      return { scrollWidth: root.scrollWidth, height: root.scrollHeight };
    });
    measured[`width${width}`] = scrollWidth;
    measured[`height${width}`] = height;
    // The verdict heading is whole on screen.
    const heading = await page.locator('h1').boundingBox();
    expect(heading && heading.x >= 0 && heading.x + heading.width <= width, `h1 within ${width} px`).toBe(true);
    // Of each failure, only the exchange it was decided on is open; the others are one click away.
    const openExchanges = await page.locator('.failure .exchange:visible').count();
    const shownFailures = await page.locator('.failure:visible').count();
    expect(openExchanges, `open exchanges at ${width} px`).toBeLessThanOrEqual(shownFailures);
    await page.screenshot({ path: join(dir, `conformance-${width}.png`), fullPage: true });
    if (width === 1280) {
      const more = page.locator('.failure details.more-exchanges').first();
      if ((await more.count()) > 0) {
        await more.locator('summary').click();
        expect(await more.locator('.exchange').first().isVisible()).toBe(true);
      }
    }
    await page.close();
  }
  expect(failures).toBeGreaterThanOrEqual(4);
  expect(measured.width390, 'no horizontal scroll on a phone').toBeLessThanOrEqual(390);
  // The causes and the per-area bars add about 900 px above the failures; the failures stay one click (or none) away.
  expect(measured.height1280, `a ${failures}-failure report at 1280 px`).toBeLessThan(6_000);
});
