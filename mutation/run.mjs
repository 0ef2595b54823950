// npm run mutation [-- --variants] [-- --thorough] [-- <stryker options, e.g. --mutate src/reference/send.ts>]
// npm run mutation -- --score <report.json.gz>: the figures of a kept report, without running anything.
//
// 1. Audits mutation/equivalents.yaml against the mutants Stryker will make (without running one): an
//    entry that matches no mutant, or another number of them than it says, fails before any run.
// 2. Runs Stryker (stryker.config.mjs) with the profile and the mutated code chosen here.
// 3. Keeps Stryker's JSON report, gzipped, as reports/mutation/<date>-<commit>-<run>.json.gz (reports/
//    is not in git) and prints the figures from it: mutants, killed, survived, the ignored ones by reason
//    (from the entries), the score, and every survivor (file:line:column, mutator, replacement) to review.
/* global process, console */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { auditEntries, printAudit } from './audit.mjs';
import { selectFiles } from './globs.mjs';
import { listMutants } from './list-mutants.mjs';
import { mutatePatterns } from './targets.mjs';
import { commitLabel, keepReport, mutantsOf, readReport, scoreLines, stagesOf } from './score.mjs';

const args = process.argv.slice(2);
const scoreAt = args.indexOf('--score');
if (scoreAt >= 0) {
  const file = args[scoreAt + 1];
  if (!file) {
    console.error('mutation: --score needs a report (reports/mutation/*.json.gz)');
    process.exit(2);
  }
  const kept = readReport(file);
  for (const line of scoreLines(mutantsOf(kept), kept.detectingStages)) console.log(line);
  process.exit(0);
}
const variants = args.includes('--variants');
const thorough = args.includes('--thorough');
const passThrough = args.filter((a) => a !== '--variants' && a !== '--thorough');
const profile = thorough ? 'thorough' : (process.env.MUTATION_PROFILE ?? 'standard');
const files = selectFiles(mutatePatterns({ variants }));

const offline = await listMutants(files, undefined, variants ? 'variants' : 'reference');
const before = auditEntries(offline.loaded, offline.mutants, new Set(files));
printAudit(before, offline.mutants.length, console.log);
if (before.problems.length) {
  console.error(`mutation: ${before.problems.length} entries of mutation/equivalents.yaml have rotted; fix them before measuring`);
  process.exit(1);
}

const started = Date.now();
const measured = commitLabel();
const name = `mutation${profile === 'standard' ? '' : `-${profile}`}${variants ? '-variants' : ''}`;
// Which stage detected each mutant (mutation/stages.mjs appends to it; absolute: the stages run in Stryker's sandbox).
const stageLog = resolve(`reports/mutation/${name}-stages.log`);
rmSync(stageLog, { force: true });
const env = { ...process.env, MUTATION_PROFILE: profile, MUTATION_STAGE_LOG: stageLog, ...(variants ? { MUTATION_VARIANTS: '1' } : {}) };
const stryker = spawnSync('npx', ['stryker', 'run', ...passThrough], { stdio: 'inherit', env });
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
if (stryker.status !== 0) {
  console.error(`mutation: stryker exited with ${stryker.status}`);
  process.exit(stryker.status ?? 1);
}

const written = `reports/mutation/${name}.json`;
const report = JSON.parse(readFileSync(written, 'utf8'));
const stages = existsSync(stageLog) ? readFileSync(stageLog, 'utf8') : '';
const kept = keepReport(written, name, { commit: measured, stages });
const mutants = mutantsOf(report);
console.log(`\nMutation (${profile}${variants ? ', valid variants' : ''}): ${mutants.length} mutants in ${minutes} min; report kept as ${kept}`);
for (const line of scoreLines(mutants, stagesOf(stages))) console.log(`  ${line}`);
// The entries the run started with: the file may change while a long run goes on (a merge, a rebind), and
// the report holds the mutants of the code as it was at the start.
const after = auditEntries(offline.loaded, mutants, new Set(passThrough.some((a) => a.startsWith('--mutate') || a === '-m') ? [] : files));
printAudit(after, mutants.length, (line) => console.log(`  ${line}`));
for (const m of mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
  console.log(
    `  SURVIVED ${m.file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} -> ${JSON.stringify(m.replacement ?? '').slice(0, 120)}`,
  );
}
process.exitCode = after.problems.length ? 1 : 0;
