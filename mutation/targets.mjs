// What the mutation runs mutate, shared by stryker.config.mjs and mutation/list-mutants.mjs.
//
// The reference run (`npm run mutation`) mutates every file of the reference whose behaviour a client can
// observe: the server and its dispatch, the Host check, the 413 close and the socket set-up (server.ts,
// connections.ts), Node's replies to malformed HTTP (client-error.ts), the anonymous buckets, the defaults
// the options resolve to and the pets a store is seeded with (settings.ts), each key's plan limits
// (api-keys.ts), the pipeline, the operations, the store, the rate limiter and the transport. A region of those files no client can observe is a
// reviewed entry of mutation/equivalents.yaml with its reason, one mutant each, like an equivalent;
// nothing is left out by file.
// The variant run (`npm run mutation -- --variants`) mutates the valid variants' alternatives
// (liberties.ts, random-ids.ts, pet-wire.ts, sliding-log-limiter.ts, and send.ts's chunked, Connection: close and HTTP-date
// choices), which only a variant configuration executes.
//
// Never mutated, and why:
// - the named faults (faults/, every set) and the variants' option sets
//   (variants.ts): deliberate deviations, so a mutant of one is only another fault;
// - index.ts: re-exports, no behaviour;
// - the standalone entry (standalone.ts): argument parsing and start-up of
//   the command-line wrapper, which an embedded conformance run (the only kind a mutant runs under)
//   never executes; the server it starts is server.ts, mutated above;
// - the start-up checks (startup/): the operator's configuration, checked before the reference listens —
//   each option's validity, each key's token68 form, plan and numbers, REFERENCE_API_KEYS, the demo keys
//   made when none is given, a key masked in a log line, the spec's PetStatus. A conformance run starts the
//   reference with valid options and resolved keys, so a mutant there either stops the start (which
//   every run detects) or lets through an invalid value no run gives: no client request reaches it.
//   What those options and keys resolve to (settings.ts, api-keys.ts) is mutated above; test/reference
//   (standalone.test.ts, auth.test.ts, server.test.ts) covers the checks themselves. With them, the
//   operator's handle on a running server (startup/lifecycle.ts): the URL it names for a wildcard or IPv6
//   address and close(), which no client request reaches either;
// - which named faults a server starts with (faults/compose.ts, namedFaults): a mutant there is only
//   another fault configuration.
import { tsImport } from 'tsx/esm/api';

const NEVER = [
  '!src/reference/faults/**',
  '!src/reference/variants.ts',
  '!src/reference/standalone.ts',
  '!src/reference/startup/**',
  '!src/reference/index.ts',
];
const VARIANT_CODE = ['src/reference/liberties.ts', 'src/reference/random-ids.ts', 'src/reference/pet-wire.ts', 'src/reference/sliding-log-limiter.ts'];
// Transport choices only a variant's option takes (chunked bodies, Connection: close, an HTTP-date
// Retry-After): send.ts is mutated in both runs; its entries say which run each applies to.
const VARIANT_TRANSPORT = ['src/reference/send.ts'];

/** The mutate patterns of a run. */
export function mutatePatterns({ variants = false } = {}) {
  if (variants) return [...VARIANT_CODE, ...VARIANT_TRANSPORT];
  return ['src/reference/**/*.ts', ...NEVER, ...VARIANT_CODE.map((f) => `!${f}`)];
}

/**
 * The valid variants each configuration of the variant run starts: every variant whose alternative lives
 * in the variant code, grouped so that one conformance run covers several without conflict.
 */
export const VARIANT_RUNS = [
  ['limit-clamped', 'unknown-status-empty', 'random-ids', 'extra-pet-fields', 'plain-429-body', 'sliding-log-window'],
  ['newest-first', 'bounded-names', 'integer-forms-refused', 'limit-default'],
  // restricted-categories skips what needs other categories (INT-005's 1e3 among them): it stays away
  // from integer-forms-refused, whose refusals INT-005 exercises.
  ['chunked-bodies', 'connection-close', 'retry-after-http-date', 'undefined-fields-refused', 'undefined-parameters-refused', 'restricted-categories'],
];

/**
 * Variants of VARIANT_RUNS whose code keeps the day window too (the sliding log keeps its day as fixed
 * windows), run again under the embedded setups where the day binds (SETUPS): under the default setup the
 * exhaustion key's day is never reached, and every mutant of that code would survive unseen.
 */
export const VARIANT_DAY_RUNS = [
  ['sliding-log-window', 'day-window'],
  ['sliding-log-window', 'both-windows'],
];

/**
 * The valid variants the variant run does not start: each is an option the core reads (a default status,
 * error codes, 404 for a bad petId, 400 for a wrong Content-Type, a first id, a base path, seeded pets, a
 * delay, no IETF fields), so the reference run already mutates the code that makes its choice (and starts
 * those of CORE_VARIANT_RUN, whose code no setup executes). Every
 * variant of src/reference/variants.ts is in exactly one of VARIANT_RUNS and this list (a test holds it).
 */
export const CORE_VARIANTS = [
  'default-status-available',
  'custom-error-codes',
  'petid-not-found',
  'content-type-400',
  'ids-above-2-53',
  'prefixed-base-path',
  'prefilled-store',
  'slow-responses',
  'no-ietf-ratelimit-fields',
  'no-deprecation-headers',
];

/**
 * The SHOULD warnings a valid variant earns by design, read from the variant itself (its `warns` in
 * src/reference/variants.ts, their one home; the valid-variants test holds the suite to exactly these):
 * a run of the variant run that starts one passes them on to mutation/judge.mjs, which then counts every
 * other warning as detection. tsx loads the TypeScript source, as the CLI the judge starts does.
 */
const { VARIANTS } = await tsImport('../src/reference/variants.ts', import.meta.url);
export const VARIANT_WARNINGS = Object.freeze(
  Object.fromEntries(VARIANTS.filter((variant) => variant.warns?.length).map((variant) => [variant.name, [...variant.warns]])),
);

/**
 * The suite settings a valid variant needs (its suiteConfig in src/reference/variants.ts, as the
 * valid-variants test passes them): a server that knows only categories 1 to 10 is tested with those.
 */
export const VARIANT_ARGS = {
  'restricted-categories': ['--category-ids', '1,2,3,4,5,6,7,8,9,10'],
};

/** The embedded setups each mutant is run against, in order (src/harness/target.ts, EMBEDDED_SETUPS). */
export const SETUPS = ['default', 'day-window', 'both-windows'];

/**
 * The core variants the reference run starts after its setups, in one run: code only they execute (the
 * seeded pets of prefilled-store, the delayed answer of slow-responses, the 404 Error body of
 * petid-not-found, the default status of default-status-available) is mutated in the reference run, so it
 * is run there rather than ignored. Only a mutant the setups did not kill reaches it. A seeded store
 * leaves LIM-006 and CON-003 untested (PARTIAL, exit 0): the setups before it test them.
 */
export const CORE_VARIANT_RUN = ['prefilled-store', 'slow-responses', 'petid-not-found', 'default-status-available'];

/** The variants' own test: every variant takes its liberty (test/reference/variants.test.ts). */
export const LIBERTY_TEST = 'npx vitest run --project unit test/reference/variants.test.ts';

/**
 * A run's stages, in order (mutation/stages.mjs runs them; the first that fails detects the mutant):
 * - reference: the conformance run against every embedded setup, then the core variants, then the
 *   variants' liberty test — last, so that it only meets the mutants every conformance run let through:
 *   a mutant that turns a core variant's liberty off (no delay, no seeded pets, no default status) leaves
 *   a server the suite rightly calls CONFORMANT, but the valid-variants verdict test then no longer shows
 *   the suite accepting that liberty. The kept report says how many only this stage detected.
 * - variants: the liberty test first (it is the cheapest), then each group of VARIANT_RUNS.
 * A fixed seed: a mutant is killed or survives the same way on every run. --fail-fast: a killed mutant
 * ends its run at the first failure. Reports stay in the sandbox.
 */
export function runStages({ variants = false, profile = 'standard' } = {}) {
  const cli = `node mutation/judge.mjs --profile ${profile} --strict --fail-fast --seed 20240605 --report-dir .stryker-reports`;
  const liberty = { name: 'liberty-test', command: LIBERTY_TEST, env: {} };
  if (variants) {
    return [
      liberty,
      ...VARIANT_RUNS.map((group, index) => {
        const warnings = group.flatMap((name) => VARIANT_WARNINGS[name] ?? []);
        const settings = group.flatMap((name) => VARIANT_ARGS[name] ?? []);
        const command = [cli, '--reference-variants', group.join(','), ...settings, ...(warnings.length ? ['--expected-warnings', warnings.join(',')] : [])];
        return { name: `variants-${index + 1}`, command: command.join(' '), env: {} };
      }),
      ...VARIANT_DAY_RUNS.map(([variant, setup]) => ({
        name: `${variant}-${setup}`,
        command: `${cli} --reference-variants ${variant}`,
        env: { CONFORMANCE_EMBEDDED_SETUP: setup },
      })),
    ];
  }
  return [
    ...SETUPS.map((setup) => ({ name: setup, command: cli, env: setup === 'default' ? {} : { CONFORMANCE_EMBEDDED_SETUP: setup } })),
    { name: 'core-variants', command: `${cli} --reference-variants ${CORE_VARIANT_RUN.join(',')}`, env: {} },
    liberty,
  ];
}
