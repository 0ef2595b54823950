import { appendFileSync } from 'node:fs';
import { shownText } from '../console-text.ts';
import { type ConformanceReport, failureLine } from '../report/index.ts';

/**
 * CI-native output for GitHub Actions: a Markdown summary appended to $GITHUB_STEP_SUMMARY (verdict,
 * counts, each failing requirement with its one-line reason and curl line, the untested MUSTs) and an
 * ::error annotation per failing requirement. Nothing changes elsewhere. Annotations are the one kind
 * of line allowed to start with `::`, so they go to `annotate` (stdout), not through the console sink
 * that neutralises such lines; every piece of them is built from shownText.
 */
export function writeCiOutput(
  report: ConformanceReport,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
  annotate: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): void {
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(env.GITHUB_STEP_SUMMARY, stepSummary(report));
    } catch (error) {
      log(`warning: could not write the step summary to GITHUB_STEP_SUMMARY: ${(error as Error).message}`);
    }
  }
  if (env.GITHUB_ACTIONS === 'true') for (const line of annotations(report)) annotate(line);
}

export function stepSummary(report: ConformanceReport): string {
  const { verdict, run, counts, traffic } = report;
  const lines = [
    `## Animal Store conformance: ${verdict.label}`,
    '',
    escape(verdict.why),
    '',
    `Target ${run.target.embedded ? '`embedded reference`' : codeSpan(shownText(run.target.url))} · profile ${run.profile} · seed ${run.seed} · ${traffic.requestCount} requests`,
    '',
    '| level | pass | fail | warn | partly tested | untested | out of scope |',
    '|---|---|---|---|---|---|---|',
    ...(['MUST', 'SHOULD', 'MAY', 'ADVISORY'] as const).flatMap((level) => {
      const c = counts[level];
      if (!c) return [];
      return `| ${level} | ${c.pass} | ${c.fail} | ${c.warn} | ${c.partial} | ${c.skipped} | ${c['not-covered']} |`;
    }),
    '',
  ];
  const failing = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn');
  if (failing.length > 0) {
    lines.push('### Failing', '');
    for (const r of failing) {
      const failure = r.failures[0];
      const reason = failureLine(r);
      lines.push(
        `- **${r.id}** (${r.level}${r.verdict === 'warn' ? (r.level === 'ADVISORY' ? ', advisory: never fails the run' : ', warning') : ''}) ${escape(r.text)}`,
        `  - ${escape(reason)}`,
      );
      if (failure?.curl) lines.push('', '  ```sh', `  ${shownText(failure.curl, 4000)}`, '  ```');
    }
    lines.push('');
  }
  const untested = verdict.scope.untested.filter((u) => u.level === 'MUST');
  if (untested.length > 0 && verdict.overall !== 'incomplete') {
    lines.push(`### Untested MUST requirements (${untested.length})`, '');
    for (const u of untested) lines.push(`- **${u.id}**: ${escape(u.reason)} — ${escape(u.cover)}`);
    lines.push('');
  }
  for (const problem of report.harnessErrors.slice(0, 5)) lines.push(`> ${problem.code}: ${escape(problem.message)}`, '');
  lines.push(`Replay: ${codeSpan(shownText(run.command, 4000))}`, '');
  return `${lines.join('\n')}\n`;
}

export function annotations(report: ConformanceReport): string[] {
  const lines = report.requirements
    .filter((r) => r.verdict === 'fail')
    .map((r) => `::error title=${property(`${r.id} ${r.level}`)}::${message(`${r.text} — ${shownText(failureLine(r))}`)}`);
  for (const problem of report.harnessErrors.slice(0, 5))
    lines.push(`::error title=${property(shownText(problem.code, 40))}::${message(shownText(problem.message))}`);
  return lines;
}

/** Characters Markdown reads as markup: links and images, emphasis, code, tables, headings, HTML, entities. */
const MARKDOWN = /[\\`*_[\]()!#|~<>&]|:(?=\/\/)/g;
const HTML_ENTITIES: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Target text for the Markdown summary: sanitised like the console (one line, no control character, no
 * workflow command), then shown as text: every character Markdown reads as markup is backslash-escaped
 * (so `[x](y)` and `![x](y)` are no link or image, `|` no table cell), `<`, `>` and `&` are entities (no
 * HTML), and the colon of `://` is escaped so a bare URL is not made a link.
 */
export function markdownText(text: string): string {
  return shownText(text).replace(MARKDOWN, (c) => HTML_ENTITIES[c] ?? `\\${c}`);
}

const escape = markdownText;

/** Text as a Markdown code span: fenced with one backtick more than its longest run of them, so it cannot close early. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** GitHub's workflow-command escaping: %, CR and LF in the message. */
function message(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A property (title=…) escapes : and , as well. */
function property(text: string): string {
  return message(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
