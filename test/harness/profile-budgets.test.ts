import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/config/plans.ts';
import { PROFILE_RULES } from '../../src/config/profiles.ts';
import { PAST_REMAINING } from '../../suites/support/rate-exhaustion.ts';

describe('the quick profile can spend a dedicated Free exhaustion key', () => {
  it("has an exhaustion budget of its own that holds a Free minute, the requests past its 429's Remaining 0, the first probe and the recovery", () => {
    const needed = PLANS.free.perMinute + PAST_REMAINING + 2;
    expect(PROFILE_RULES.quick.exhaustBudget).toBeGreaterThanOrEqual(needed);
  });

  it('waits long enough for the 429 recovery and one window turn of the main key', () => {
    expect(PROFILE_RULES.quick.waitAllowanceMs).toBeGreaterThanOrEqual(2 * 60_000);
  });

  it('keeps the main key within a Free minute and a half, so a Free key waits one window turn at most', () => {
    expect(PROFILE_RULES.quick.budget).toBeLessThanOrEqual(PLANS.free.perMinute * 1.5);
  });
});
