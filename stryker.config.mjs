// Mutation testing of the reference implementation (npm run mutation): each mutant of the reference's
// behaviour is a server the conformance suite must call NOT CONFORMANT (or INCOMPLETE, when the mutant
// breaks it too badly to test). A benchmark, not part of npm test or CI.
//
// The command runner drives the CLI against the embedded reference: the reference runs in the CLI's own
// process, where Stryker's instrumented code reads the active mutant from __STRYKER_ACTIVE_MUTANT__.
// MUTATION_PROFILE selects the profile (standard by default; thorough for the full measure). --strict:
// a mutant that breaks a SHOULD (a missing Location, a missing WWW-Authenticate) is a deviation the suite
// must report too, so warnings count as detection.
/* global process */
const profile = process.env.MUTATION_PROFILE ?? 'standard';

export default {
  testRunner: 'command',
  commandRunner: {
    // A fixed seed: a mutant is killed or survives the same way on every run. --fail-fast: a killed mutant
    // ends its run at the first failure. Reports stay in the sandbox.
    command: `node src/bin/animal-store-conformance.js --profile ${profile} --strict --fail-fast --seed 20240605 --report-dir .stryker-reports`,
  },
  mutate: [
    'src/reference/**/*.ts',
    // Not the reference's behaviour: named faults and valid variants are deliberate deviations (the
    // faults, the variants' option sets, the alternatives they select in liberties.ts and random-ids.ts,
    // the field-by-field rendering only a fault or the extra-fields variant takes in pet-wire.ts, and
    // seams.ts, which fills in the seams no fault changes with the value unchanged); the standalone entry
    // and its option parsing are a wrapper; options.ts holds only types.
    '!src/reference/faults/**',
    '!src/reference/independent-faults/**',
    '!src/reference/variants.ts',
    '!src/reference/liberties.ts',
    '!src/reference/random-ids.ts',
    '!src/reference/pet-wire.ts',
    '!src/reference/standalone.ts',
    '!src/reference/main.ts',
    '!src/reference/options.ts',
    '!src/reference/seams.ts',
    '!src/reference/index.ts',
    // Key configuration (REFERENCE_API_KEYS parsing, demo keys, masking) serves the standalone entry; a
    // conformance run hands the reference its keys ready-made. test/reference/standalone.test.ts covers it.
    '!src/reference/plans.ts',
    // The bound on anonymous clients' buckets (10,000 addresses) is a resource limit one client cannot
    // reach in a run; test/reference/rate-limit.test.ts and the abuse bench measure it.
    '!src/reference/anonymous-buckets.ts',
    // Transport and start-up (Node's own replies to malformed HTTP, socket handling, option checks) are
    // measured by the abuse checks, not by conformance runs: MUTATE_ALL=1 includes them.
    ...(process.env.MUTATE_ALL
      ? []
      : [
          '!src/reference/client-error.ts',
          '!src/reference/connections.ts',
          '!src/reference/server.ts',
          '!src/reference/send.ts',
          '!src/reference/settings.ts',
        ]),
  ],
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${profile === 'standard' ? 'mutation' : `mutation-${profile}`}.html` },
  jsonReporter: { fileName: `reports/mutation/${profile === 'standard' ? 'mutation' : `mutation-${profile}`}.json` },
  incremental: true,
  incrementalFile: `reports/mutation/stryker-incremental-${profile}.json`,
  concurrency: 2,
  // A run takes a few seconds; a mutant that hangs the server is cut off, and counts as detected.
  timeoutMS: 30_000,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  disableTypeChecks: 'src/reference/**/*.ts',
};
