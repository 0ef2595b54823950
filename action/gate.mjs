// The Action's outputs verdict, gate and gate-reason, from the run's conformance.json and the CLI's exit
// code, printed as name=value lines for $GITHUB_OUTPUT. The reason comes from the suite's own gateDecision
// (dist/cli/gate-reason.js), so the output says exactly what the console, the job summary and the
// annotation said; a run that left no report (or was ended by a signal) still gets a reason.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const [reportPath = '', codeText = ''] = process.argv.slice(2);
const code = Number(codeText);
const dist = new URL('../dist/', import.meta.url);
const { gateDecision } = await import(new URL('cli/gate-reason.js', dist).href);
const { shownText } = await import(new URL('text/console-text.js', dist).href);

let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch {
  report = undefined;
}
const verdict = typeof report?.verdict?.overall === 'string' ? report.verdict.overall : 'incomplete';
let reason;
if (![0, 1, 2].includes(code)) reason = `INCOMPLETE: the suite ended with exit ${codeText} before its verdict (ended by a signal or out of memory?)`;
else if (!report) reason = `INCOMPLETE: the suite exited ${code} and wrote no report (see the log of this step)`;
else reason = gateDecision(report, code).reason;
// One line, no control character: an output value, and a workflow command's text below.
const line = shownText(reason, 2000);
process.stdout.write(`verdict=${verdict}\ngate=${code === 0 ? 'pass' : 'fail'}\ngate-reason=${line}\n`);
