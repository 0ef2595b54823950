import type { Check } from './check-types.ts';

/**
 * A drop the client's retry hid counts only when the connection had been idle this briefly: a server may
 * time out an idle connection (RFC 9112 §9.5), and a request can race that close; one that closes a
 * connection a moment after answering on it, without `Connection: close`, does not support persistent
 * connections and did not say so (RFC 9112 §9.3).
 */
export const DROP_IDLE_MS = 1_000;

/**
 * And only when drops are the target's habit, not a blip of the network: at least this many on one
 * client, and at least one for every DROPS_SHARE answers it received. A target that closes every reused
 * connection drops about every second request; one connection in ten lost on the way is not that.
 */
export const MIN_DROPS = 3;
export const DROPS_SHARE = 4;

/** Characters of stray bytes quoted in a finding (redacted first). */
const QUOTED_STRAY = 120;

/**
 * HTTP-001: a pooled connection received bytes while no request was in flight on it — a response nobody
 * asked for, which a keep-alive client reads as the answer to its next request. undici closes such a
 * connection without a word; the client's watch (src/client/stray-bytes.ts) hands the bytes to this check.
 */
export const nothingUnasked: Check = {
  name: 'nothing-unasked',
  requirementId: 'HTTP-001',
  run(ctx) {
    const stray = ctx.strayBefore;
    if (stray === undefined) return undefined;
    const text = (ctx.redact ?? ((t: string) => t))(JSON.stringify(stray.bytes));
    const shown = text.length > QUOTED_STRAY ? `${text.slice(0, QUOTED_STRAY)}…` : text;
    return {
      expected: 'nothing on a kept-alive connection between one answer and the next request',
      actual: `${stray.count === 1 ? 'a connection' : `${stray.count} connections`} of the suite's pool received bytes while no request was in flight on it, before this response: ${shown}`,
    };
  },
};

/**
 * HTTP-001: the request before this response was sent on a reused connection that the target closed
 * without an answer, moments after its previous answer, and the client sent it again on a new one. A
 * keep-alive client that does not retry (a POST never is) gets an error instead.
 */
export const connectionKeptOpen: Check = {
  name: 'connection-kept-open',
  requirementId: 'HTTP-001',
  run(ctx) {
    const drop = ctx.droppedBefore;
    if (drop === undefined || drop.idleMs === undefined || drop.idleMs >= DROP_IDLE_MS) return undefined;
    if (drop.drops < MIN_DROPS || drop.drops * DROPS_SHARE < drop.answered) return undefined;
    return {
      expected: 'an answer on the connection the previous response left open (it did not say Connection: close)',
      actual: `no answer there (${drop.error}); the same request sent again on a new connection got this response`,
    };
  },
};
