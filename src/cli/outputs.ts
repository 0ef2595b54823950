import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config/load-config.ts';
import { REPORT_FILES } from '../report/index.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { stepSummary } from './ci-output.ts';

/**
 * The reports at the paths the user named besides the report directory (--html, --json, --junit), and the
 * Markdown summary (--summary-md). Returns the paths written.
 */
export function writeExtraOutputs(report: ConformanceReport, reportDir: string, outputs: Config['outputs']): string[] {
  const written: string[] = [];
  for (const kind of ['html', 'json', 'junit'] as const) {
    const to = outputs[kind];
    const from = join(reportDir, REPORT_FILES[kind]);
    if (to === undefined || !existsSync(from)) continue;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    written.push(to);
  }
  if (outputs.summaryMd !== undefined) {
    mkdirSync(dirname(outputs.summaryMd), { recursive: true });
    writeFileSync(outputs.summaryMd, stepSummary(report));
    written.push(outputs.summaryMd);
  }
  return written;
}
