// Mutation testing of the reference implementation (npm run mutation; mutation/run.mjs drives it): each
// mutant of the reference's behaviour is a server the conformance suite must call NOT CONFORMANT (or
// INCOMPLETE, when the mutant breaks it too badly to test). A benchmark, not part of npm test or CI.
//
// The command runner drives the CLI against the embedded reference: the reference runs in the CLI's own
// process, where Stryker's instrumented code reads the active mutant from __STRYKER_ACTIVE_MUTANT__.
// MUTATION_PROFILE selects the profile (standard by default; thorough for the full measure). --strict:
// a mutant that breaks a SHOULD (a missing Location, a missing WWW-Authenticate) is a deviation the suite
// must report too, so warnings count as detection; so does a warning of an ADVISORY requirement, which
// --strict leaves alone (mutation/judge.mjs runs the CLI and reads its report).
//
// Each mutant runs against every embedded setup in turn (src/harness/target.ts: the default one, then a
// day window that binds with ids past INT64_MAX, then both windows binding at once), then against the
// core variants whose code no setup executes (CORE_VARIANT_RUN: seeded pets, a delay, a 404 for a bad
// petId, a default status); the first that fails kills it. MUTATION_VARIANTS=1 (npm run mutation -- --variants) mutates the valid variants' code
// instead and runs it under the variant configurations that execute it (mutation/targets.mjs), after the
// variants' own test of their liberties.
//
// The only mutants ignored are the reviewed entries of mutation/equivalents.yaml, one mutant each; there
// are no Stryker disable comments in src/reference.
/* global process */
import { installReviewedEquivalents } from './mutation/reviewed-equivalents.mjs';
import { CORE_VARIANT_RUN, SETUPS, VARIANT_ARGS, VARIANT_RUNS, VARIANT_WARNINGS, mutatePatterns } from './mutation/targets.mjs';

await installReviewedEquivalents();

const profile = process.env.MUTATION_PROFILE ?? 'standard';
const variants = process.env.MUTATION_VARIANTS === '1';
const name = `mutation${profile === 'standard' ? '' : `-${profile}`}${variants ? '-variants' : ''}`;

// A fixed seed: a mutant is killed or survives the same way on every run. --fail-fast: a killed mutant
// ends its run at the first failure. Reports stay in the sandbox.
const cli = `node mutation/judge.mjs --profile ${profile} --strict --fail-fast --seed 20240605 --report-dir .stryker-reports`;
// The variants' own test first: every variant takes its liberty (test/reference/variants.test.ts). A
// mutant that turns a liberty off leaves a server the suite rightly calls CONFORMANT, but then the
// valid-variants verdict test no longer shows the suite accepting that liberty: this test kills it.
const libertyTest = 'npx vitest run --project unit test/reference/variants.test.ts';
const runs = variants
  ? [
      libertyTest,
      ...VARIANT_RUNS.map((group) => {
        const warnings = group.flatMap((name) => VARIANT_WARNINGS[name] ?? []);
        const settings = group.flatMap((name) => VARIANT_ARGS[name] ?? []);
        return [cli, '--reference-variants', group.join(','), ...settings, ...(warnings.length ? ['--expected-warnings', warnings.join(',')] : [])].join(' ');
      }),
    ]
  : [
      ...SETUPS.map((setup) => (setup === 'default' ? cli : `CONFORMANCE_EMBEDDED_SETUP=${setup} ${cli}`)),
      `${cli} --reference-variants ${CORE_VARIANT_RUN.join(',')}`,
    ];

export default {
  testRunner: 'command',
  commandRunner: { command: runs.join(' && ') },
  mutate: mutatePatterns({ variants }),
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  incremental: true,
  incrementalFile: `reports/mutation/stryker-incremental-${profile}${variants ? '-variants' : ''}.json`,
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  // A run takes seconds; a mutant that hangs the server is cut off, and counts as detected.
  timeoutMS: 60_000,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  disableTypeChecks: 'src/reference/**/*.ts',
};
