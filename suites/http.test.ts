import { CLOSE_PROBE_REQUESTS, probeCloseKept } from '../src/client/close-probe.ts';
import { framingProbeRequests, probeFramingOnceMoreIfLost } from '../src/client/framing-probe.ts';
import { defaultUserAgent } from '../src/client/user-agent.ts';
import { type ConformanceContext, conformance } from '../src/harness/index.ts';
import type { Exchange } from '../src/client/exchange.ts';
import { type OddAnswer, oddRequests, sendOddRequest } from './support/odd-requests.ts';

/**
 * HTTP/1.1 framing on a persistent connection, written and read byte for byte (undici's pool would retry
 * or hide what a keep-alive client such as Python's http.client trips on): a response followed by one
 * nobody asked for desynchronises every later request on the connection, and a connection closed
 * without `Connection: close` fails the next request sent on it.
 */

/**
 * How long the probe listens after a response for bytes nobody asked for: 300 ms on a remote target. The
 * embedded reference writes each response whole, in one write, and none of its faults writes after one:
 * there the window proves the probe's machinery, not the target, and a tenth of a second keeps its
 * worker from sleeping while the others compute (docs/performance.md).
 */
const quietMs = (embedded: boolean) => (embedded ? 100 : 300);

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
      quietMs: quietMs(ctx.run.embedded),
      lone,
      sink: ctx.rawExchanges,
      network: ctx.run.network,
      userAgent: ctx.run.userAgent ?? defaultUserAgent(),
    };
    const result = await probeFramingOnceMoreIfLost(options, () => (ctx.budgetLeft() ?? Infinity) >= needed);
    if (result.lostFirst !== undefined) ctx.note(`the framing probe lost a request once (${result.lostFirst}) and ran again`);
    for (const note of result.notes) ctx.note(note);
    const [problem] = result.problems;
    if (problem) ctx.fail(problem.expected, problem.actual, problem.exchanges);
    // What the probe heard after each response it listened past is in the log: rejudge judges it again,
    // and a pass must judge every such exchange (a second response nobody asked for is a desync).
    // A first run that lost a request (then run again) is in the log too: what it heard is judged as well.
    const probed = [...(result.earlier ?? []), ...result.exchanges];
    for (const exchange of probed) {
      if (exchange.heardAfter) ctx.judge('nothing-heard-after', exchange, {}, 'the framing probe');
    }
    // A connection an answer said Connection: close ends there: an upload too large for most servers, and a
    // request after it in the same write (standard and thorough: quick's budget has no room for it).
    let closed: Exchange[] = [];
    if (lone && (ctx.budgetLeft() ?? Infinity) >= CLOSE_PROBE_REQUESTS) {
      const closing = await probeCloseKept(options);
      for (const note of closing.notes) ctx.note(note);
      const [kept] = closing.problems;
      if (kept) ctx.fail(kept.expected, kept.actual, kept.exchanges);
      closed = closing.exchanges;
    }
    // Every exchange of both probes, judged again by what the log keeps of the wire (bytes, connections,
    // closes): the rule finds what the probes found, so rejudge decides this pass from the log.
    ctx.judge('framing-probe-kept', [...probed, ...closed], {}, 'the framing and close probes');
  },
  { tier: 'quick' },
);

// HTTP-002 (advisory): a Host-less request, an unknown expectation, CONNECT, and a valid request followed
// by bytes that are not HTTP, each on a connection of its own. RFC 9112 §3.2 asks 400 for the first; RFC
// 9110 lets a server answer an unknown expectation 417 or ignore it, and an origin server refuse CONNECT
// however it likes, closing included. Only a hang, a 5xx where a 4xx is asked, a tunnel, an Error body with
// a blank code or message, and the bad bytes' refusal answered before the valid request (the desync a
// pipelining client or a proxy then suffers: RFC 9112 §9.3 answers in order) warn: a bare answer passes, as
// a front on Node (a proxy, a gateway) gives it before the server sees the request. A server may close
// after the valid request's answer, or instead of it: only an answer out of order is judged.
conformance(
  'HTTP-002',
  'a request without Host, an unknown Expect, CONNECT and bad bytes after a request are answered in order, with what every response carries',
  async (ctx: ConformanceContext) => {
    const { hostless, expectation, connect, garbage, noise } = oddRequests(ctx.run.baseUrl);
    const left = ctx.budgetLeft();
    if (left !== undefined && left < 5) ctx.skip(`the odd requests need 5 requests; ${left} left in the budget`, 'budget');
    const judgeError = (label: string, answer: OddAnswer) =>
      ctx.judge('error-body-whole', answer.exchange, {}, `the ${answer.kind === 'response' ? answer.status : ''} to ${label}`);
    // Each odd request's answer, judged by a rule on what the log keeps of the wire (how the reading ended, the status).
    const noHost = await sendOddRequest(ctx, hostless);
    ctx.judge('answered-400', noHost.exchange, {}, hostless.label);
    judgeError(hostless.label, noHost);

    const expect = await sendOddRequest(ctx, expectation);
    ctx.judge('answered-below-500', expect.exchange, {}, expectation.label);
    if (expect.kind === 'response' && expect.status >= 400) judgeError(expectation.label, expect);

    const tunnel = await sendOddRequest(ctx, connect);
    ctx.judge('tunnel-refused', tunnel.exchange, {}, connect.label);
    if (tunnel.kind === 'response' && tunnel.status >= 400 && tunnel.status < 500) judgeError(connect.label, tunnel);

    // The same bytes first on a new connection, with no request before them: a 4xx or a close, and the
    // server still answers afterwards (the run goes on against it).
    const alone = await sendOddRequest(ctx, noise);
    ctx.judge('refused-4xx-or-closed', alone.exchange, {}, noise.label);
    if (alone.kind === 'response' && alone.status >= 400) judgeError(noise.label, alone);

    // The first answer on the connection belongs to the valid request: GET /pets is served (or refused
    // for the rate limit), never answered with the refusal of the bytes after it.
    const first = await sendOddRequest(ctx, garbage);
    ctx.judge('own-answer-first', first.exchange, {}, 'when bad bytes follow it in one write');
    // Then the bad bytes' own answer: a 4xx (with a whole Error body, when it has one) or a close. Left
    // unanswered on an open connection, they hold it until the server's own time-out.
    const next = first.next;
    if (next !== undefined) {
      ctx.judge('refused-4xx-or-closed', next.exchange, {}, "after the GET's answer, the bytes that are not HTTP");
      if (next.kind === 'response' && next.status >= 400) judgeError('the bytes that are not HTTP', next);
    }
  },
);
