import type { TargetClient } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { type Reading, describeReading, readRate } from './rate-readings.ts';
import { keyIsolationOf } from '../../src/checks/rules/rate-rules.ts';

/** Requests sent on the other key between the two readings of the observed one. */
export const ISOLATION_BURST = 3;
/** Trials that saw nothing usable (a window turned between the readings) before the test gives up. */
const MAX_TRIALS = 3;

/**
 * One paired observation: the observed key read, `burst` requests on the other key, the observed key
 * read again. On a server whose counters belong to keys, the observed key's Remaining falls by its own
 * request only; on one counter per address (or for everyone), it falls with the other key's too.
 * - `own`: it fell by at most 1 (its own request) in the same window;
 * - `shared`: it fell by its own request plus at least `burst`, or the second reading was a 429 although
 *   the first said requests were left, in the same window;
 * - `unclear`: the window turned, a header was unreadable, or it fell by less than the burst (someone
 *   else spending the key explains that as well as a shared counter does).
 */
export interface Trial {
  before: Reading;
  after: Reading;
  burst: number;
  kind: 'own' | 'shared' | 'unclear';
}

export async function pairedTrial(observed: TargetClient, other: TargetClient, burst: number): Promise<Trial> {
  // The first reading is paced and retried like any request: a window an earlier test spent is waited for.
  let before = readRate(await observed.listPets({ limit: 1 }));
  // No room left for the second reading in this window (a key of two requests a window, read at its
  // end): read again, which the client paces to the next window, rather than spend a burst on nothing.
  if (before.remaining === 0) before = readRate(await observed.listPets({ limit: 1 }));
  for (let i = 0; i < burst; i += 1) await other.listPets({ limit: 1 });
  const after = readRate(await observed.listPets({ limit: 1 }, { retryOn429: false }));
  return { before, after, burst, kind: classify(before, after, burst) };
}

function classify(before: Reading, after: Reading, burst: number): Trial['kind'] {
  return keyIsolationOf({ ...before, status: before.response.status }, { ...after, status: after.response.status }, burst);
}

export function describeTrial(trial: Trial): string {
  const between = trial.burst === 0 ? 'nothing sent on the other key' : `${trial.burst} requests on the other key`;
  return `${describeReading(trial.before)}, then ${between}, then ${describeReading(trial.after)}`;
}

export type Isolation =
  | { kind: 'own'; trial: Trial }
  /** Shared twice, with a control in between that showed the observed key idle otherwise. */
  | { kind: 'shared'; first: Trial; control: Trial; confirm: Trial }
  | { kind: 'unclear'; reason: string; trials: Trial[] };

/**
 * Whether the observed key's counter moves with the other key's requests. A drop is never put down to
 * someone else using the key, and never failed on one sight either: a shared-looking trial is followed by
 * a control (the observed key alone, which must fall by exactly its own request: nobody else is spending
 * it) and one more trial, and only a second shared trial after a clean control is a finding.
 */
export async function keyIsolation(observed: TargetClient, other: TargetClient): Promise<Isolation> {
  const trials: Trial[] = [];
  for (let attempt = 0; attempt < MAX_TRIALS; attempt += 1) {
    const first = await pairedTrial(observed, other, ISOLATION_BURST);
    trials.push(first);
    if (first.kind === 'own') return { kind: 'own', trial: first };
    if (first.kind === 'unclear') continue;
    const control = await pairedTrial(observed, other, 0);
    trials.push(control);
    if (control.kind !== 'own') {
      return {
        kind: 'unclear',
        reason: `the key's Remaining fell by more than its own request with nothing else sent by the suite: ${describeTrial(control)}`,
        trials,
      };
    }
    const confirm = await pairedTrial(observed, other, ISOLATION_BURST);
    trials.push(confirm);
    if (confirm.kind === 'shared') return { kind: 'shared', first, control, confirm };
    if (confirm.kind === 'own') return { kind: 'own', trial: confirm };
  }
  return { kind: 'unclear', reason: `no two readings of the key in one window: ${trials.map(describeTrial).join('; ')}`, trials };
}

/** Two keys RATE-011 compares: the observed one's counter must not move with the other's requests. */
export interface KeyPairing {
  observed: TargetClient;
  other: TargetClient;
  /** Which keys, for the report (never their values). */
  what: string;
}

/**
 * Every pairing RATE-011 judges: the second key observed while the main key is spent (the embedded
 * reference's isolation key, or --exhaust-key), and each --plan-key observed while the one before it of the same
 * plan is spent: a limiter that counts one plan's keys together (every Free key of an address) shows
 * only there, when the main key is of another plan.
 */
export function keyPairings(ctx: ConformanceContext): KeyPairing[] {
  const pairings: KeyPairing[] = [];
  const pair = keyPair(ctx);
  // The embedded reference has a key of the exhaustion key's kind for this alone: the observation spends
  // its window, which on the exhaustion key would leave the exhaustion waiting for the window to turn.
  const { isolationApiKey } = ctx.run;
  const observed = isolationApiKey && pair ? ctx.clientWithKey(isolationApiKey) : pair?.second;
  if (pair && observed) pairings.push({ observed, other: pair.main, what: 'the second key, while the main key is spent' });
  const { planKeys } = ctx.run;
  planKeys.forEach((planKey, i) => {
    const sibling = planKeys.slice(0, i).find((k) => k.plan === planKey.plan && k.key !== planKey.key);
    if (!sibling) return;
    const what = `${planKey.plan}-plan key ${i + 1}, while ${planKey.plan}-plan key ${planKeys.indexOf(sibling) + 1} is spent`;
    pairings.push({ observed: ctx.clientWithKey(planKey.key), other: ctx.clientWithKey(sibling.key), what });
  });
  return pairings;
}

/** The two keys of a run: the main one and a second (the embedded exhaustion key, or --exhaust-key). */
export function keyPair(ctx: ConformanceContext): { main: TargetClient; second: TargetClient } | undefined {
  const second = ctx.run.exhaustApiKey;
  return second && second !== ctx.run.apiKey ? { main: ctx.client, second: ctx.clientWithKey(second) } : undefined;
}
