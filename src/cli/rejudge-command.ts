import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCatalog } from '../catalog/catalog.ts';
import { HAR_FILE, MANIFEST_FILE, rejudge } from '../certificate/index.ts';
import { parseStrictJson } from '../certificate/strict-json.ts';
import { shownText } from '../text/console-text.ts';
import { createContract } from '../contract/index.ts';
import { REPORT_FILES } from '../report/index.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { asciiJson } from './verify.ts';

export const REJUDGE_USAGE = `Usage: animal-store-conformance rejudge <bundle-dir|report-dir> [--format text|json]

Re-judges a run from its exchange log (exchanges.har) alone, with this suite: every always-on check on
every logged response, every judgment a test recorded on the exchange it names, the request counts and
timing, then every requirement and the verdict. Says where the log gives something else than the report
(conformance.json) claims. verify runs the same re-judging on a bundle.

  --format text|json  json: the re-judgement as one JSON object (ASCII only), for machines
  --help, -h          this text

Exit: 0 the log gives exactly what the report claims; 1 it does not; 2 bad arguments or unreadable files.`;

/** `rejudge <dir>`: exit 0 when the log gives exactly what the report claims, 1 when not, 2 for usage. */
export function runRejudge(argv: readonly string[], log: (line: string) => void): number {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { format: { type: 'string', default: 'text' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    log(`animal-store-conformance rejudge: ${shownText((error as Error).message)}\n${REJUDGE_USAGE}`);
    return 2;
  }
  if (values.help) {
    log(REJUDGE_USAGE);
    return 0;
  }
  const format = values.format;
  if (positionals.length !== 1 || (format !== 'text' && format !== 'json')) {
    log(`animal-store-conformance rejudge: give one directory${format !== 'text' && format !== 'json' ? ', and --format text or json' : ''}\n${REJUDGE_USAGE}`);
    return 2;
  }
  const dir = positionals[0] ?? '';
  const reportPath = join(dir, REPORT_FILES.json);
  const harPath = join(dir, HAR_FILE);
  const absent = [reportPath, harPath].filter((path) => !existsSync(path));
  if (absent.length > 0) {
    log(`animal-store-conformance rejudge: ${absent.map((p) => shownText(p)).join(' and ')} not found: give a bundle or a report directory of this suite`);
    return 2;
  }
  let report: ConformanceReport;
  let har: unknown;
  try {
    report = parseStrictJson(readFileSync(reportPath)) as ConformanceReport;
    har = parseStrictJson(readFileSync(harPath));
  } catch (error) {
    log(`animal-store-conformance rejudge: ${shownText((error as Error).message)}`);
    return 2;
  }
  let result;
  try {
    result = rejudge(report, har, loadCatalog(), createContract());
  } catch (error) {
    // A report shaped to trip the re-judging is a difference, never a pass.
    log(`animal-store-conformance rejudge: the report cannot be re-judged: ${shownText((error as Error).message)}`);
    return 1;
  }
  // Where every exchange is logged whole (a bundle, a shard, a merge), a summarised entry hides one from
  // the checks: refused, as verify refuses it. A plain run's report summarises passing tests' exchanges.
  const whole = existsSync(join(dir, MANIFEST_FILE)) || report.run?.shard !== undefined || report.run?.merged !== undefined;
  if (whole && result.stats.summarised > 0)
    result.differences.unshift(`${result.stats.summarised} entries of the log are marked summarised: a bundle, a shard and a merge log every exchange whole`);
  const same = result.differences.length === 0;
  if (format === 'json') {
    log(asciiJson({ same, stated: report.verdict?.overall, rejudged: result.verdict, ...result }));
    return same ? 0 : 1;
  }
  const { stats } = result;
  log(
    `Re-judged ${stats.entries} exchanges from ${HAR_FILE}: ${stats.checkedWhole} re-checked whole, ${stats.headersOnly} on their headers only (a body cut for the report), ${stats.notChecked} not re-checked (the framing probe's, summarised, or no answer); ${stats.judgments} recorded judgments re-evaluated (${stats.rules} rules evaluated again, ${stats.rulesUnproven} on entries not kept whole, their tests unproven; taken as recorded: ${stats.rulesTakenAsRecorded} rules on summarised entries and ${stats.checks} checks).`,
  );
  if (same) {
    log(`Same: the log gives every finding, test outcome, requirement verdict and the verdict (${String(result.verdict).toUpperCase()}) the report claims.`);
    if (result.stats.summarised > 0)
      log(
        `Of which ${result.stats.summarised} exchanges were summarised (passing tests of a run outside --certify and shards): their checks were not run again.`,
      );
    return 0;
  }
  log(`DIFFERENT: the log gives ${String(result.verdict).toUpperCase()}, the report claims ${shownText(String(report.verdict?.overall)).toUpperCase()}:`);
  for (const difference of result.differences) log(`  - ${shownText(difference, 400)}`);
  return 1;
}
