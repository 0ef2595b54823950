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
// petId, a default status), then the variants' own test of their liberties; the first that fails kills
// it (mutation/stages.mjs, which records the stage). MUTATION_VARIANTS=1 (npm run mutation -- --variants)
// mutates the valid variants' code instead and runs it under the variant configurations that execute it,
// after the liberty test (mutation/targets.mjs, runStages).
//
// The only mutants ignored are the reviewed entries of mutation/equivalents.yaml, one mutant each; there
// are no Stryker disable comments in src/reference.
/* global process */
import { installReviewedEquivalents } from './mutation/reviewed-equivalents.mjs';
import { mutatePatterns } from './mutation/targets.mjs';

await installReviewedEquivalents();

const profile = process.env.MUTATION_PROFILE ?? 'standard';
const variants = process.env.MUTATION_VARIANTS === '1';
const name = `mutation${profile === 'standard' ? '' : `-${profile}`}${variants ? '-variants' : ''}`;

export default {
  testRunner: 'command',
  // The stages of the run, in order (mutation/targets.mjs, runStages), the first failure detecting the mutant.
  commandRunner: { command: 'node mutation/stages.mjs' },
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
