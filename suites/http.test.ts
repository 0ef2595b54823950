import { framingProbeRequests, probeFramingOnceMoreIfLost } from '../src/client/framing-probe.ts';
import { type ConformanceContext, conformance } from '../src/harness/index.ts';

/**
 * HTTP/1.1 framing on a persistent connection, written and read byte for byte (undici's pool would retry
 * or hide what a keep-alive client such as Python's http.client trips on): a response followed by one
 * nobody asked for desynchronises every later request on the connection, and a connection closed
 * without `Connection: close` fails the next request sent on it.
 */

/** How long the probe listens after a response for bytes nobody asked for. */
const QUIET_MS = 300;

conformance(
  'HTTP-001',
  'one response per request on a persistent connection, nothing after it, pipelined answers in order',
  async (ctx: ConformanceContext) => {
    // Quick's 55 requests are all spoken for: there the pipelined pair alone, which still shows a response
    // nobody asked for (after the second answer) and a connection closed under a request.
    const lone = ctx.run.profile !== 'quick';
    const needed = framingProbeRequests(lone);
    const left = ctx.budgetLeft();
    if (left !== undefined && left < needed) ctx.skip(`the framing probe needs ${needed} requests; ${left} left in the budget`, 'budget');
    const options = {
      baseUrl: ctx.run.baseUrl,
      apiKey: ctx.run.apiKey,
      timeoutMs: ctx.run.timeoutMs,
      quietMs: QUIET_MS,
      lone,
      sink: ctx.rawExchanges,
      network: ctx.run.network,
    };
    const result = await probeFramingOnceMoreIfLost(options, () => (ctx.budgetLeft() ?? Infinity) >= needed);
    if (result.lostFirst !== undefined) ctx.note(`the framing probe lost a request once (${result.lostFirst}) and ran again`);
    for (const note of result.notes) ctx.note(note);
    const [problem] = result.problems;
    if (problem) ctx.fail(problem.expected, problem.actual, problem.exchanges);
    const answered = result.exchanges.filter((exchange) => exchange.response !== undefined);
    ctx.check(answered.length > 0, 'an answer to the probe', 'none', result.exchanges);
  },
  { tier: 'quick' },
);
