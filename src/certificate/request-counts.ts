import type { Profile } from '../config/profiles.ts';

/**
 * The fewest requests a passed test of these requirements sends, on any server the interface allows:
 * their tests follow a fixed procedure (so many creates, so many reads), so the count is known before
 * the run, whatever the seed. A forger who deletes the exchange that failed, and lowers the counts to
 * match, leaves a pass that sent fewer, and rejudge refuses it (a gap in the file's numbers catches the
 * same edit only when the exchange was not the file's last). Held on whole-catalog runs only: with
 * `--only` a test may find fewer of the other files' pets to list (CON-003), and a certified run or
 * merge never has `--only`. Taken from the passes of 33 runs of this suite (the reference at each
 * profile, read-only too, every valid variant at quick and standard, named faults' runs), where each
 * count is the same in every standard run; the lowest profile's count where quick differs, and the
 * least the test's code can send where the mode or the store changes it (read from the suites: STA-009's
 * 4 and ERR-002's 2 read-only, LIM-004's 7 on a store that already holds 101 animals). Property and
 * model tests (their cases follow the seed; the property tests are held by GENERATED_CASES below) and the rate-limit tests (their counts follow the plan) are
 * not listed, nor HTTP-001's probes (one request at quick when the target closes after every answer;
 * framing-probe-kept holds their records to the order the probes send). HTTP-002 sends its five odd
 * requests, each on a connection of its own.
 */
export const REQUESTS_OF_EVERY_PASS: Readonly<Record<string, number>> = {
  'CON-001': 4,
  'CON-003': 4,
  'DEP-001': 2,
  'DEP-006': 2,
  'ERR-002': 2,
  'HTTP-002': 5,
  'INT-003': 4,
  'INT-005': 9,
  'INT-006': 2,
  'LIM-001': 2,
  'LIM-003': 2,
  'LIM-004': 7,
  'LIM-005': 2,
  'LIM-009': 4,
  'SCH-003': 2,
  'SCH-005': 5,
  'STA-003': 2,
  'STA-007': 6,
  'STA-009': 4,
  'STA-011': 3,
  'STA-012': 8,
  'STA-013': 3,
  'STA-014': 3,
  'STA-016': 2,
  'STA-017': 2,
};

/**
 * The cases a passed property test generates at each profile, whatever the seed: fast-check runs
 * exactly `numRuns` generated cases of a property that holds (after one case of each input family, from
 * standard on, counted by family-counts.ts from the contract), and every
 * case sends at least one request (SCH-006 one or two). The numbers are the suites' own
 * (`suites/property.test.ts`, `ctx.numRuns`). A forger who deletes the failing case's exchange leaves a
 * pass that sent fewer, at any seed and with --only too (a property test reads no other file's pets).
 * CON-002's model runs are not listed: a generated sequence of commands may be empty.
 */
export const GENERATED_CASES: Readonly<Record<string, Readonly<Record<Profile, number>>>> = {
  'SCH-006': { quick: 2, standard: 10, thorough: 600 },
  'STA-005': { quick: 0, standard: 3, thorough: 150 },
  'STA-006': { quick: 0, standard: 4, thorough: 600 },
  'STA-007': { quick: 0, standard: 1, thorough: 150 },
  'INT-002': { quick: 0, standard: 1, thorough: 100 },
  'LIM-008': { quick: 2, standard: 10, thorough: 500 },
};

const requests = (n: number) => `${n} request${n === 1 ? '' : 's'}`;

/** Why a passed test sent fewer requests than every pass of its requirement does, if it did. */
export function requestShortfall(
  requirementId: string,
  sent: number,
  run: { only?: readonly string[] | undefined },
  table: Readonly<Record<string, number>> = REQUESTS_OF_EVERY_PASS,
): string | undefined {
  const least = table[requirementId];
  if (least === undefined || (run.only?.length ?? 0) > 0 || sent >= least) return undefined;
  return `it sent ${requests(sent)}, where every passed ${requirementId} test sends at least ${least}`;
}

/**
 * Why a passed property test sent fewer requests than the cases it ran at the run's profile, if it did:
 * its generated cases (GENERATED_CASES) and the one case of each input family it sends first (`families`,
 * family-counts.ts computes them from the contract). A property test is one the report gives its
 * property run (`property`) or, as the suites name them, whose name ends "(property)": the requirement's
 * example tests send what they send.
 */
export function caseShortfall(
  requirementId: string,
  test: { name: string; property?: unknown },
  sent: number,
  profile: Profile | undefined,
  cases: Readonly<Record<string, Readonly<Record<Profile, number>>>> = GENERATED_CASES,
  families = 0,
): string | undefined {
  if (test.property === undefined && !test.name.endsWith('(property)')) return undefined;
  const generated = profile === undefined ? undefined : cases[requirementId]?.[profile];
  if (generated === undefined || sent >= generated + families) return undefined;
  const each = `its ${generated} generated cases${families > 0 ? ` and its ${families} input families` : ''}`;
  return `it sent ${requests(sent)}, where a passed ${requirementId} property test at profile ${profile ?? ''} sends one or more for each of ${each}`;
}
