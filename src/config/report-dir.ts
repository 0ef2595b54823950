import { resolve } from 'node:path';
import { CONFIG_DEFAULTS } from './defaults.ts';

/**
 * Where the reports go, as an absolute path: the one reading of --report-dir. `given` is what the
 * settings hold (flag, ASC_REPORT_DIR, --env-file, --config); absent or empty is reports/, under `cwd`.
 */
export function resolveReportDir(given: string | undefined, cwd: string = process.cwd()): string {
  return resolve(cwd, given || CONFIG_DEFAULTS.reportDir);
}

/**
 * Where the report of a run whose configuration was refused goes: the --report-dir flag, else
 * ASC_REPORT_DIR; a --config or --env-file that may be what was refused is not read for it.
 */
export function reportDirWithoutConfig(flag: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return resolveReportDir(flag || env.ASC_REPORT_DIR);
}
