// node mutation/judge.mjs <CLI arguments>: the mutation runs' test command. Runs the CLI against the
// embedded reference and passes its exit code on; when the run is otherwise clean (exit 0), a warning of
// an ADVISORY requirement (a standard's rule, which never fails --strict) still detects the mutant:
// exit 1, naming it. The unmutated reference warns on none (Stryker's dry run would fail otherwise).
/* global process, console */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const run = spawnSync(process.execPath, ['src/bin/animal-store-conformance.js', ...args], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const at = args.indexOf('--report-dir');
const dir = at >= 0 ? args[at + 1] : 'reports';
const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
const warned = report.requirements.filter((r) => r.level === 'ADVISORY' && (r.verdict === 'warn' || r.verdict === 'fail'));
if (warned.length > 0) {
  console.log(`mutation: advisory ${warned.map((r) => r.id).join(', ')} warned: the mutant is detected`);
  process.exit(1);
}
