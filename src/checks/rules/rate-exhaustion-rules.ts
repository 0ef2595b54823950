import { type RateReading, describe, rateReadingOf, remainingSlack } from './rate-rules.ts';
import { type JudgmentRule, type RuleExchange, fails, holds } from './rule-kit.ts';

/**
 * Rules on one key's exhaustion, its first (paced) response to its 429 (RATE-004): the 429 only once
 * Remaining reached 0, nothing served past 0 in the same window, a window seen whole serving its Limit.
 */

/** The exchanges of one key's exhaustion, first to last, ending in its 429; undefined when they do not. */
function exhaustion(exchanges: readonly RuleExchange[]): { served: RateReading[]; previous: RuleExchange; tooMany: RuleExchange } | undefined {
  const tooMany = exchanges[exchanges.length - 1];
  const previous = exchanges[exchanges.length - 2];
  if (!tooMany || !previous || tooMany.status !== 429) return undefined;
  return { served: exchanges.slice(0, -1).map(rateReadingOf), previous, tooMany };
}

export const RATE_EXHAUSTION_RULES: readonly JudgmentRule[] = [
  {
    name: 'rate-429-after-zero',
    readsBody: false,
    judge: () => holds('a 429 only once X-RateLimit-Remaining has reached 0'),
    judgeAll(exchanges) {
      const expected = 'a 429 only once X-RateLimit-Remaining has reached 0';
      const seen = exhaustion(exchanges);
      if (!seen) return fails(expected, 'a sequence that does not end in a 429');
      const slack = remainingSlack(seen.served);
      const remaining = rateReadingOf(seen.previous).remaining;
      // Up to `slack` left is a race with others on the key (1: the suite's own request in flight).
      if (remaining !== undefined && remaining <= slack) return holds(expected);
      const others = slack > 1 ? ` (Remaining fell by up to ${slack} per request, unexplained by the suite's own)` : '';
      return {
        ...fails(`${expected}${others}`, `429 right after a response that said ${describe(seen.previous)}`),
        failedAt: exchanges.length - 1,
        alsoAt: exchanges.length - 2,
      };
    },
  },
  {
    name: 'rate-none-served-past-zero',
    readsBody: false,
    judge: () => holds('no request served once X-RateLimit-Remaining has said 0 in the same window'),
    judgeAll(exchanges) {
      const expected = 'no request served once X-RateLimit-Remaining has said 0 in the same window';
      for (let i = 1; i < exchanges.length; i += 1) {
        const [zero, next] = [exchanges[i - 1] as RuleExchange, exchanges[i] as RuleExchange];
        const [before, after] = [rateReadingOf(zero), rateReadingOf(next)];
        if (before.remaining === 0 && after.reset === before.reset && next.status < 300)
          return { ...fails(expected, `${describe(zero)}, then the next request was served: ${describe(next)}`), failedAt: i, alsoAt: i - 1 };
      }
      return holds(expected);
    },
  },
  {
    name: 'rate-window-serves-limit',
    readsBody: false,
    judge: () => holds('a window serves its X-RateLimit-Limit before its 429'),
    judgeAll(exchanges) {
      const seen = exhaustion(exchanges);
      const limit = seen ? rateReadingOf(exchanges[0] as RuleExchange).limit : undefined;
      if (!seen || limit === undefined) return fails('a window from its first request to its 429, with an X-RateLimit-Limit', 'a sequence that is not one');
      const expected = `a window of X-RateLimit-Limit ${limit}, opened by this key's first request, serves ${limit} requests before its 429`;
      const served = exchanges.length - 1;
      if (served >= limit) return holds(expected);
      return {
        ...fails(expected, `${served} served, then 429: ${describe(seen.previous)} → ${describe(seen.tooMany)}`),
        failedAt: exchanges.length - 1,
        alsoAt: exchanges.length - 2,
      };
    },
  },
];
