import { type JudgmentRule, type RuleExchange, fails, holds, isObject, shown } from './rule-kit.ts';
import type { RuleName } from './rule-params.ts';

/**
 * HTTP-002's odd requests (no Host, an unknown Expect, CONNECT, bytes that are not HTTP), judged again
 * from the log's record of the wire (`_wire`): how the reading of the answer ended, and the answer. A
 * close is an answer these requests may get, so the rules judge exchanges without a response too, by
 * what the record says ended the reading; no record, or one that contradicts the logged status, fails.
 */

type Ending = 'response' | 'closed' | 'timeout' | 'malformed';

/** How the reading of the answer ended, as the record says and the logged status agrees; a string: why not readable. */
function ending(e: RuleExchange): Ending | string {
  const wire = e.wire;
  if (!wire || (wire.place !== 'odd' && wire.place !== 'odd-next')) return 'the exchange has no record of an odd request on the wire (`_wire`)';
  if (e.status > 0 !== (wire.ended === 'response')) return `the record says the reading ended ${wire.ended}, where the log's status is ${e.status}`;
  // A connection the target refused is what its close is: the probe saw no answer either way.
  return wire.ended === 'unreachable' ? 'closed' : wire.ended;
}

const described = (kind: Ending, e: RuleExchange) =>
  kind === 'response' ? `${e.status}` : kind === 'closed' ? 'the connection closed without an answer' : `no answer (${kind})`;

function oddRule(name: RuleName, expected: string, accepts: (kind: Ending, status: number) => boolean): JudgmentRule {
  return {
    name,
    readsBody: false,
    judgesRaw: true,
    judgesUnanswered: true,
    judge(e) {
      const kind = ending(e);
      if (kind !== 'response' && kind !== 'closed' && kind !== 'timeout' && kind !== 'malformed') return fails(expected, kind);
      return accepts(kind, e.status) ? holds(expected, described(kind, e)) : fails(expected, described(kind, e));
    },
  };
}

const is4xx = (status: number) => status >= 400 && status < 500;

export const ODD_REQUEST_RULES: readonly JudgmentRule[] = [
  oddRule('answered-400', 'answered 400 (RFC 9112 §3.2)', (kind, status) => kind === 'response' && status === 400),
  oddRule('answered-below-500', 'answered 417, or as if the expectation were absent (below 500)', (kind, status) => kind === 'response' && status < 500),
  oddRule('tunnel-refused', 'refused with an answer that is not a 2xx, or the connection closed', (kind, status) =>
    kind === 'closed' ? true : kind === 'response' && (status < 200 || status >= 300),
  ),
  oddRule(
    'refused-4xx-or-closed',
    'refused with a 4xx, or the connection closed',
    (kind, status) => kind === 'closed' || (kind === 'response' && is4xx(status)),
  ),
  // The valid request's own answer first (2xx, 3xx or 429), or no answer read at all (a close, bytes that are not one), never a hang.
  oddRule('own-answer-first', "the GET's own answer first (below 400, or 429), or a close", (kind, status) =>
    kind === 'timeout' ? false : kind !== 'response' || status < 400 || status === 429,
  ),
  {
    name: 'error-body-whole',
    readsBody: true,
    judgesRaw: true,
    judge(e) {
      const expected = 'an Error body, when the answer has a JSON object, with a non-empty code and message';
      if (!e.wire || e.status === 0) return fails(expected, 'no answer recorded');
      // A bare answer (no JSON object) is not judged: a front answers these requests that way before the server sees them.
      if (!isObject(e.body)) return holds(expected, 'no JSON object');
      const body = e.body;
      const gaps = ['code', 'message'].filter((field) => typeof body[field] !== 'string' || (body[field] as string).trim() === '');
      return gaps.length === 0 ? holds(expected) : fails(expected, `no non-empty ${gaps.join(' or ')} in ${shown(e.text, 80)}`);
    },
  },
];
