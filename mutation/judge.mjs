// node mutation/judge.mjs <CLI arguments> [--expected-warnings <ids>]: the mutation runs' test command.
// Runs the CLI against the embedded reference and passes its exit code on; when the run is otherwise
// clean (exit 0), a warning of an ADVISORY requirement (a standard's rule, which never fails --strict)
// still detects the mutant: exit 1, naming it. The unmutated reference warns on none (Stryker's dry run
// would fail otherwise).
//
// --expected-warnings names the SHOULD warnings a valid variant earns by design (the variant run): the
// CLI then runs without --strict (which would stop at them), and any other warning, SHOULD or ADVISORY,
// detects the mutant as --strict would have.
/* global process, console */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const given = process.argv.slice(2);
const expectedAt = given.indexOf('--expected-warnings');
const expected = new Set(expectedAt >= 0 ? given[expectedAt + 1].split(',') : []);
const args = expectedAt >= 0 ? given.filter((a, i) => i !== expectedAt && i !== expectedAt + 1 && a !== '--strict') : given;
const run = spawnSync(process.execPath, ['src/bin/animal-store-conformance.js', ...args], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const at = args.indexOf('--report-dir');
const dir = at >= 0 ? args[at + 1] : 'reports';
const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
const judged = (r) => r.level === 'ADVISORY' || (expectedAt >= 0 && r.level !== 'MUST' && !expected.has(r.id));
const warned = report.requirements.filter((r) => judged(r) && (r.verdict === 'warn' || r.verdict === 'fail'));
if (warned.length > 0) {
  console.log(`mutation: ${warned.map((r) => `${r.level} ${r.id}`).join(', ')} warned: the mutant is detected`);
  process.exit(1);
}
