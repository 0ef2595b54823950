import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import type { ConformanceReport } from './report-types.ts';
import { renderHtml } from './render-html.ts';
import { renderJson } from './render-json.ts';
import { renderJunit } from './render-junit.ts';

export const REPORT_FILES = { html: 'conformance.html', json: 'conformance.json', junit: 'junit.xml' } as const;

/**
 * Writes conformance.html, conformance.json and junit.xml into `dir` (created if needed). Each file is
 * rendered on its own: a renderer that throws still leaves the other two, then the error is raised.
 * Returns the paths written. Usable after `vitest --merge-reports` as well as from the reporter.
 */
export function writeReports(report: ConformanceReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const renderers: Array<[string, (r: ConformanceReport) => string]> = [
    [REPORT_FILES.json, renderJson],
    [REPORT_FILES.junit, renderJunit],
    [REPORT_FILES.html, renderHtml],
  ];
  const written: string[] = [];
  const failed: string[] = [];
  let firstError: unknown;
  for (const [name, render] of renderers) {
    try {
      const path = join(dir, name);
      writeFileSync(path, render(report));
      written.push(path);
    } catch (error) {
      failed.push(`${name}: ${(error as Error).message}`);
      firstError ??= error;
    }
  }
  if (failed.length > 0) {
    throw new HarnessError('ERR_INTERNAL', `could not write every report to ${dir}: ${failed.join('; ')}`, { cause: firstError });
  }
  return written;
}
