import { describe, expect, test } from 'vitest';
import { renderHtml } from '../../src/report/render-html.ts';
import { HOSTILE, sampleReport } from '../support/sample-report.ts';

describe('conformance.html', () => {
  const { report } = sampleReport({ exchangesPerTest: 5, harnessErrors: true });
  const page = renderHtml(report);

  test('text from the target is escaped everywhere: no markup of its own survives', () => {
    expect(page).not.toContain('<script>window.__xss');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;script&gt;window.__xss = 1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=2&quot;&gt;&quot;&#39;&amp;');
    // exactly one script element: the report's own
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(HOSTILE).toContain('<script>');
  });

  test('control characters from the target show as visible symbols', () => {
    // eslint-disable-next-line no-control-regex -- the hostile control characters must not reach the page
    expect(page).not.toMatch(/[\u0001\u001b]/);
    expect(page).toContain('&amp;\\u0001\\u001B');
  });

  test('is self-contained: no external resource, a CSP that forbids connections', () => {
    expect(page).not.toMatch(/<(link|img|iframe|object|embed)\b/);
    expect(page).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    expect(page).not.toMatch(/@import|url\(/);
    expect(page).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/,
    );
  });

  test('opens with the verdict, its reason and the run that made it', () => {
    const banner = page.slice(page.indexOf('<header'), page.indexOf('</header>'));
    expect(banner).toContain('NOT CONFORMANT');
    expect(banner).toContain('3 MUST requirements fail: SCH-002, AUTH-002, RATE-001; the run was also incomplete');
    for (const fact of ['staging.animal-store.example', '424242', 'standard']) expect(banner).toContain(fact);
  });

  test('each failure shows expected, actual, the exchange, the counterexample and a copy button for curl', () => {
    const start = page.indexOf('id="req-SCH-002"');
    const item = page.slice(start, page.indexOf('</article>', start));
    for (const part of ['Expected', 'Actual', 'Counterexample', 'HTTP 201', 'authorization: Bearer ***', 'class="copy"', 'curl -sS -X POST']) {
      expect(item).toContain(part);
    }
  });

  test('passing requirements carry summaries, not exchanges', () => {
    const start = page.indexOf('id="req-LIM-001"');
    const item = page.slice(start, page.indexOf('</article>', start));
    expect(item).toContain('data-verdict="pass"');
    expect(item).not.toContain('class="exchange"');
  });

  test('stays small for ~70 requirements and thousands of exchanges', () => {
    const big = sampleReport({ exchangesPerTest: 60 });
    const html = renderHtml(big.report);
    const bytes = Buffer.byteLength(html);
    console.info(
      `conformance.html: ${big.report.requirements.length} requirements, ${big.report.traffic.requestCount} exchanges, ${(bytes / 1024).toFixed(0)} KiB`,
    );
    expect(big.report.traffic.requestCount).toBeGreaterThan(3_000);
    expect(bytes).toBeLessThan(1_000_000);
  });
});
