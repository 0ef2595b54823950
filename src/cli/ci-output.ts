import { appendFileSync } from 'node:fs';
import { shownText } from '../text/console-text.ts';
import { type ConformanceReport, failureLine, rootCauses } from '../report/index.ts';
import { listIds } from '../report/overall-verdict.ts';
import { type GateDecision, gateDecision } from './gate-reason.ts';

/**
 * CI-native output for GitHub Actions: a Markdown summary appended to $GITHUB_STEP_SUMMARY (verdict, the
 * gate's decision and why, counts, the failures by probable cause with a reason and a curl line, the
 * untested MUSTs) and annotations: the gate's, then one ::error per probable cause. Nothing changes elsewhere. Annotations are the one kind
 * of line allowed to start with `::`, so they go to `annotate` (stdout), not through the console sink
 * that neutralises such lines; every piece of them is built from shownText.
 */
export function writeCiOutput(
  report: ConformanceReport,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
  annotate: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  decision: GateDecision = gateDecision(report),
): void {
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(env.GITHUB_STEP_SUMMARY, stepSummary(report, decision));
    } catch (error) {
      log(`warning: could not write the step summary to GITHUB_STEP_SUMMARY: ${(error as Error).message}`);
    }
  }
  if (env.GITHUB_ACTIONS === 'true') for (const line of annotations(report, decision)) annotate(line);
}

export function stepSummary(report: ConformanceReport, decision: GateDecision = gateDecision(report)): string {
  const { verdict, run, counts, traffic } = report;
  const lines = [
    `## Animal Store conformance: ${verdict.label}`,
    '',
    // The why holds a harness problem's message (target text) when there is one: shown inert, as code.
    report.harnessErrors.length > 0 ? codeSpan(shownText(verdict.why, 2000)) : escape(verdict.why),
    '',
    `**Gate: ${decision.gate}** (exit ${decision.exitCode}): ${codeSpan(shownText(decision.reason, 2000))}`,
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
    ...failingByCause(report),
  ];
  const untested = verdict.scope.untested.filter((u) => u.level === 'MUST');
  if (untested.length > 0 && verdict.overall !== 'incomplete') {
    lines.push(`### Untested MUST requirements (${untested.length})`, '');
    for (const u of untested) {
      const accepted = u.acceptedBy ? ` (accepted with the baseline entry ${u.acceptedBy})` : '';
      lines.push(`- **${u.id}**${accepted}: ${codeSpan(shownText(u.reason))} — ${escape(u.cover)}`);
    }
    lines.push('');
  }
  for (const problem of report.harnessErrors.slice(0, 5)) lines.push(`> ${problem.code}: ${codeSpan(shownText(problem.message))}`, '');
  lines.push(`Replay: ${codeSpan(shownText(run.command, 4000))}`, '');
  return `${lines.join('\n')}\n`;
}

/**
 * Failures grouped by probable cause, as the HTML report groups them: one defect is one entry, its first
 * requirement with the reason and curl line, the others it explains one line each. Target text (the
 * reason, the cause's words) is a code span, where `@mentions`, links, e-mail addresses and `$` stay text.
 */
function failingByCause(report: ConformanceReport): string[] {
  const shown = rootCauses(report).filter((cause) => cause.requirements.some((r) => r.verdict === 'fail' || r.verdict === 'warn'));
  if (shown.length === 0) return [];
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const lines = [`### Failing, by probable cause (${shown.length})`, ''];
  for (const cause of shown) {
    const ids = cause.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
    const behind = cause.untested.length > 0 ? `; leaves untested ${listIds(cause.untested.map((id) => ({ id })))}` : '';
    lines.push(
      `- ${codeSpan(shownText(cause.summary))}: ${ids.length === 1 ? 'fails' : `explains ${ids.length}`} ${listIds(ids.map((id) => ({ id })))}${behind}`,
    );
    if (cause.front) lines.push(`  - ${codeSpan(shownText(cause.front, 1000))}`);
    for (const [index, id] of ids.entries()) {
      const r = byId.get(id);
      if (!r) continue;
      const mark = r.verdict === 'warn' ? (r.level === 'ADVISORY' ? ', advisory: never fails the run' : ', warning') : '';
      lines.push(`  - **${r.id}** (${r.level}${mark}) ${escape(r.text)}`, `    - ${codeSpan(shownText(failureLine(r)))}`);
      const curl = r.failures[0]?.curl;
      if (index === 0 && curl) lines.push('', '    ```sh', `    ${shownText(curl, 4000)}`, '    ```');
    }
  }
  lines.push('');
  return lines;
}

/**
 * The gate's decision first (::error when it fails, ::notice when it passes), then one ::error per
 * probable cause of failing requirements (not one per requirement: GitHub shows ten), then the harness errors.
 */
export function annotations(report: ConformanceReport, decision: GateDecision = gateDecision(report)): string[] {
  const lines = [`::${decision.gate === 'pass' ? 'notice' : 'error'} title=${property(`Gate ${decision.gate}`)}::${message(shownText(decision.reason, 2000))}`];
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  for (const cause of rootCauses(report)) {
    const failing = cause.requirements.filter((r) => r.verdict === 'fail');
    const first = byId.get(failing[0]?.id ?? '');
    if (!first) continue;
    const ids = listIds(failing);
    const front = cause.front ? ` — ${shownText(cause.front, 1000)}` : '';
    lines.push(
      `::error title=${property(shownText(`${ids}: ${cause.summary}`, 200))}::${message(`${first.id} ${first.text} — ${shownText(failureLine(first))}${front}`)}`,
    );
  }
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
