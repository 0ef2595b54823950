import { type JudgmentRule, fails, holds } from './rule-kit.ts';

/**
 * HTTP-001's framing probe, judged again from what its raw exchanges record: after a response, nothing
 * until the next request. Bytes nobody asked for (a second response, a body longer than its
 * Content-Length) are what desynchronises every later request on a persistent connection.
 */
export const FRAMING_RULES: readonly JudgmentRule[] = [
  {
    name: 'nothing-heard-after',
    readsBody: false,
    judgesRaw: true,
    judge(e) {
      const expected = 'nothing after the response until the next request';
      if (!e.heardAfter) return fails(expected, 'what followed the response is not recorded');
      return e.heardAfter.bytes === 0 ? holds(expected) : fails(expected, `${e.heardAfter.bytes} more bytes`);
    },
  },
];
