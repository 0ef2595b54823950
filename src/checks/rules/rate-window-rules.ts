import { RATE_LIMIT_HEADERS } from '../../text/header-values.ts';
import { SAME_WINDOW_S, rateReadingOf, remainingSlack } from './rate-rules.ts';
import { type JudgmentRule, type RuleExchange, fails, holds } from './rule-kit.ts';

/**
 * Rules on a window of a key only the suite spends (the dedicated exhaustion key, a plan key): there no
 * other client explains a 429 that comes while the window's own headers said requests were left, so
 * the headers are held to their word, not put down to a race.
 */

const show = (e: RuleExchange, wire: string) => e.headers[wire] ?? '(none)';
const describe = (e: RuleExchange) =>
  `${e.status} with Limit ${show(e, RATE_LIMIT_HEADERS.limit.wire)}, Remaining ${show(e, RATE_LIMIT_HEADERS.remaining.wire)}, Reset ${show(e, RATE_LIMIT_HEADERS.reset.wire)}`;

/** Whether two answers name one window: Reset within SAME_WINDOW_S of each other. */
function sameWindow(a: RuleExchange, b: RuleExchange): boolean {
  const [x, y] = [rateReadingOf(a).reset, rateReadingOf(b).reset];
  return x !== undefined && y !== undefined && Math.abs(x - y) <= SAME_WINDOW_S;
}

export const RATE_WINDOW_RULES: readonly JudgmentRule[] = [
  {
    // RATE-004 on the dedicated exhaustion key: its requests are the suite's alone and sent one at a time,
    // so a 429 right after an answer that said Remaining 1 in the same window is a count one too high (a
    // Remaining counted before the request it answers), not a race with anyone.
    name: 'rate-429-after-own-zero',
    readsBody: false,
    judge: () => holds('on a key only the suite spends, a 429 only right after an answer that said Remaining 0'),
    judgeAll(exchanges) {
      const expected =
        'on a key only the suite spends, one request at a time, a 429 only right after an answer of its window that said X-RateLimit-Remaining 0';
      const tooMany = exchanges[exchanges.length - 1];
      const previous = exchanges[exchanges.length - 2];
      if (!tooMany || !previous || tooMany.status !== 429) return fails(expected, 'a sequence that does not end in a 429');
      // A 429 of another window (a longer limit's, whose Reset is later) is not this window's end.
      if (!sameWindow(previous, tooMany)) return holds(expected);
      // Remaining fell faster than the suite sent: the counter is shared with other keys, RATE-011's finding.
      const served = exchanges.slice(0, -1).map(rateReadingOf);
      if (remainingSlack(served) > 1) return holds(expected);
      if (rateReadingOf(previous).remaining === 0) return holds(expected);
      return {
        ...fails(expected, `${describe(previous)}, then the next request was refused: ${describe(tooMany)}`),
        failedAt: exchanges.length - 1,
        alsoAt: exchanges.length - 2,
      };
    },
  },
  {
    // RATE-008 on a plan key whose headers name the day: a burst of the plan's minute and one more, all the
    // suite's, sent after an answer that promised more. A 429 of that same window before the promise is
    // spent contradicts the headers: another (the minute's) limit binds while they describe the day.
    name: 'rate-promise-kept',
    readsBody: false,
    judge: () => holds('a window serves what its X-RateLimit-Remaining promised before any 429 of its own'),
    judgeAll(exchanges) {
      const [anchor, ...burst] = exchanges;
      const promised = anchor ? rateReadingOf(anchor).remaining : undefined;
      if (!anchor || promised === undefined || burst.length === 0)
        return fails('an answer with X-RateLimit-Remaining, then requests', 'a sequence that is not one');
      const expected = `a window that promised ${promised} more requests (${describe(anchor)}) serves them before any 429 of its own, when only the suite spends the key`;
      const same = burst.filter((e) => sameWindow(anchor, e));
      const served = same.filter((e) => e.status >= 200 && e.status < 300).length;
      const refused = same.findIndex((e) => e.status === 429);
      if (refused === -1 || served >= promised) return holds(expected);
      const at = exchanges.indexOf(same[refused] as RuleExchange);
      return { ...fails(expected, `${served} served, then ${describe(same[refused] as RuleExchange)}`), failedAt: at, alsoAt: 0 };
    },
  },
];
