/**
 * The profiles, in one table: every rule that differs by profile is read from here (config, run
 * context, test selection, --help). quick spends at most a Free-plan minute and a half on the main key
 * (the client waits for the next window), and spends a
 * dedicated exhaustion key's minute besides; standard 600 of a Free plan's 1,000 requests a day;
 * thorough has no ceiling.
 */

export type Profile = 'quick' | 'standard' | 'thorough';

export interface ProfileRules {
  /** Requests the run may send on the main key; undefined = no ceiling. */
  readonly budget: number | undefined;
  /**
   * Requests the run may send on a dedicated exhaustion key (the embedded one, or --exhaust-key), counted
   * apart from the main key's: its window is spent on purpose and costs the main key nothing. Quick's
   * holds a Free-plan minute (60), the requests sent past Remaining 0, the first probe and the recovery.
   */
  readonly exhaustBudget: number | undefined;
  /** How long the run may spend waiting out rate-limit windows; undefined = as long as the target asks. */
  readonly waitAllowanceMs: number | undefined;
  /** Tests of this tier and lower run: quick < standard < thorough. */
  readonly rank: number;
  /** Default --max-duration: the whole run, waits included; room to spare for a Free-plan key. */
  readonly maxDurationMs: number;
}

export const PROFILE_RULES: Readonly<Record<Profile, ProfileRules>> = Object.freeze({
  quick: Object.freeze({ budget: 85, exhaustBudget: 70, waitAllowanceMs: 120_000, rank: 0, maxDurationMs: 10 * 60_000 }),
  standard: Object.freeze({ budget: 600, exhaustBudget: 600, waitAllowanceMs: 20 * 60_000, rank: 1, maxDurationMs: 45 * 60_000 }),
  thorough: Object.freeze({ budget: undefined, exhaustBudget: undefined, waitAllowanceMs: undefined, rank: 2, maxDurationMs: 4 * 60 * 60_000 }),
});

export const PROFILES: readonly Profile[] = Object.freeze(Object.keys(PROFILE_RULES) as Profile[]);

/** Request ceilings per profile (from PROFILE_RULES). */
export const PROFILE_BUDGETS: Readonly<Record<Profile, number | undefined>> = Object.freeze(
  Object.fromEntries(PROFILES.map((p) => [p, PROFILE_RULES[p].budget])) as Record<Profile, number | undefined>,
);

export function isProfile(value: string): value is Profile {
  return (PROFILES as readonly string[]).includes(value);
}

/** `quick (<=85 requests) | standard (<=600) | thorough (no ceiling)`, for --help. */
export function describeProfiles(): string {
  return PROFILES.map((p, i) => {
    const budget = PROFILE_RULES[p].budget;
    return `${p} (${budget === undefined ? 'no ceiling' : `<=${budget}${i === 0 ? ' requests' : ''}`})`;
  }).join(' | ');
}
