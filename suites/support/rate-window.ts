import type { ConformanceContext } from '../../src/harness/index.ts';
import { type Step, stepOf } from '../../src/checks/rules/rate-rules.ts';
import { type Reading, describeReading, readRate } from './rate-readings.ts';

/** Consecutive requests per measurement: two steps in which Remaining must fall. */
const REQUESTS = 3;
export type { Step };

export function stepsOf(readings: readonly Reading[]): Step[] {
  return readings.slice(1).map((after, i) => stepOf(readings[i]!, after));
}

export function describeReadings(readings: readonly Reading[]): string {
  return readings.map(describeReading).join(' → ');
}

/**
 * Three consecutive cheap requests, measured twice at most: again when the first run saw anything but a
 * steady fall (a window that rolled over between requests, or a sliding window from which one of the
 * suite's own earlier requests expired at that moment). A target whose Remaining does not fall fails
 * both runs. Shared by RATE-002 and RATE-003 so the quick profile pays for it once.
 */
export async function measureWindow(ctx: ConformanceContext): Promise<Reading[][]> {
  const runs: Reading[][] = [];
  for (let run = 0; run < 2; run += 1) {
    const readings: Reading[] = [];
    for (let i = 0; i < REQUESTS; i += 1) readings.push(readRate(await ctx.client.listPets({ limit: 1 })));
    runs.push(readings);
    if (stepsOf(readings).every((s) => s === 'decreased' || s === 'unreadable')) break;
  }
  return runs;
}
