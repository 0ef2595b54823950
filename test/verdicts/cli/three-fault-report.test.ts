import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { areaTallies } from '../../../src/report/html/area-bars.ts';
import type { ConformanceReport } from '../../../src/report/report-types.ts';
import { rootCauses } from '../../../src/report/root-causes.ts';
import { readReport, runCli } from '../../support/cli.ts';
import { browserOutputDir, launchChromium } from '../../support/browser.ts';

/**
 * A real report: the embedded reference with three faults, one of which (createPet answers 200) fails a
 * dozen requirements. The tests carry on with the 200's Pet, so it leaves no MUST untested behind it and
 * the off-by-one limit shows in every list it shapes. What a manager reads first must be the defects.
 */
const FAULTS = 'create-returns-200,www-authenticate-missing,limit-off-by-one';

describe(`the report of a run against the reference with ${FAULTS}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'three-fault-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let report: ConformanceReport;
  let page: string;

  beforeAll(async () => {
    const run = await runCli(['--reference-faults', FAULTS, '--seed', '20261125', '--report-dir', dir]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    report = readReport(dir);
    page = readFileSync(join(dir, 'conformance.html'), 'utf8');
  }, 120_000);

  test('groups the failures by cause: createPet answering 200 first, with what it fails and what it leaves untested', () => {
    const causes = rootCauses(report);
    const [first, ...rest] = causes;
    expect(first).toMatchObject({
      kind: 'status',
      operation: 'createPet',
      status: 200,
      expected: '201',
      summary: 'createPet answers 200 where 201 is expected',
    });
    const firstIds = first!.requirements.map((r) => r.id);
    expect(firstIds).toEqual(expect.arrayContaining(['STA-001', 'SCH-002', 'STA-009', 'AUTH-007']));
    expect(first!.requirements.filter((r) => r.level === 'MUST' && r.verdict === 'fail').length).toBeGreaterThanOrEqual(8);
    // A 200 that carries the Pet leaves untested only what needs a 201 (its Location header): no MUST.
    const levelOf = (id: string) => report.requirements.find((r) => r.id === id)?.level;
    expect(first!.untested).toEqual(['STA-010']);
    expect(first!.untested.filter((id) => levelOf(id) === 'MUST')).toEqual([]);
    // The two faults behind it are causes of their own; the off-by-one limit fails every list it shapes.
    expect(rest.find((c) => c.requirements.some((r) => r.id === 'LIM-001'))!.requirements.map((r) => r.id)).toEqual(['LIM-001', 'LIM-002', 'LIM-008']);
    expect(rest.some((c) => c.requirements.some((r) => r.id === 'LIM-003'))).toBe(true);
    expect(rest.some((c) => c.requirements.some((r) => r.id === 'AUTH-009'))).toBe(true);
    // Every requirement with a failure is explained by exactly one cause.
    const explained = causes.flatMap((c) => c.requirements.map((r) => r.id));
    expect([...explained].sort()).toEqual(
      report.requirements
        .filter((r) => r.failures.length > 0)
        .map((r) => r.id)
        .sort(),
    );
    expect(new Set(explained).size).toBe(explained.length);
  });

  test('the banner says how few defects the failures come down to, and names the first', () => {
    const failing = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'deviation').length;
    // The causes of failures: createPet's 200 and the limit's three shapes (the 401's warning is apart).
    expect(page).toContain(
      `<p class="cause-line">${failing} failing requirements come down to <a href="#causes-title">4 probable causes</a>; the first: createPet answers 200 where 201 is expected.</p>`,
    );
  });

  test('each area counts its requirements in scope as passed, failed, warned or untested', () => {
    const tallies = areaTallies(report);
    for (const t of tallies) {
      const inArea = report.requirements.filter((r) => r.area === t.id && r.verdict !== 'not-covered');
      expect(t, t.id).toMatchObject({
        inScope: inArea.length,
        passed: inArea.filter((r) => r.verdict === 'pass').length,
        failed: inArea.filter((r) => r.verdict === 'fail' || r.verdict === 'deviation').length,
        untested: inArea.filter((r) => r.verdict === 'skipped' || r.verdict === 'partial').length,
      });
      expect(page).toContain(`data-area="${t.id}"`);
    }
    expect(tallies.find((t) => t.id === 'limits')).toMatchObject({ failed: 5, untested: 0 });
  });

  test('carries the command that starts the same reference again, with its faults', () => {
    const port = new URL(report.run.target.url).port;
    expect(page).toContain(
      `PORT=${port} REFERENCE_API_KEYS=&quot;$API_KEY:enterprise:1000000000:1000000000&quot; npx animal-store-conformance reference --faults ${FAULTS}`,
    );
  });

  test('in a browser at 1280 and 390 px: causes first, failures before the caveats, no sideways scroll, nothing external', async (ctx) => {
    const browser = await launchChromium(ctx);
    const shots = browserOutputDir('REPORT_BROWSER_OUT', 'three-fault-report-');
    const problems: string[] = [];
    for (const width of [1280, 390]) {
      const tab = await browser.newPage({ viewport: { width, height: 900 } });
      tab.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${width}: ${message.type()}: ${message.text()}`);
      });
      tab.on('pageerror', (error) => problems.push(`${width}: pageerror: ${error.message}`));
      tab.on('request', (request) => {
        if (!request.url().startsWith('file:')) problems.push(`${width}: network: ${request.url()}`);
      });
      await tab.goto(pathToFileURL(join(dir, 'conformance.html')).href);
      await tab.screenshot({ path: join(shots, `three-fault-${width}.png`) });
      await tab.screenshot({ path: join(shots, `three-fault-${width}-full.png`), fullPage: true });

      const top = async (selector: string) => (await tab.locator(selector).first().boundingBox())?.y ?? Number.NaN;
      const causes = tab.locator('ol.cause-list > li.cause');
      expect(await causes.count(), `causes at ${width} px`).toBeGreaterThanOrEqual(3);
      expect(await causes.first().locator('.cause-summary').textContent()).toBe('createPet answers 200 where 201 is expected');
      expect(await causes.first().isVisible()).toBe(true);
      // The verdict, then the causes, then the first failure. No MUST is untested, so there are no caveats.
      const [banner, cause, failure] = await Promise.all(['header.banner', 'section.causes', 'article.req-fail'].map(top));
      expect(banner).toBeLessThan(cause!);
      expect(cause).toBeLessThan(failure!);
      expect(await tab.locator('section.notes').count(), `no caveats at ${width} px`).toBe(0);
      expect(await tab.locator('.area-bar').count()).toBeGreaterThanOrEqual(8);

      const { scrollWidth, clientWidth } = await tab.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
      });
      expect(scrollWidth, `no horizontal scroll at ${width} px`).toBeLessThanOrEqual(clientWidth);
      await tab.close();
    }
    expect(problems).toEqual([]);
  });
});
