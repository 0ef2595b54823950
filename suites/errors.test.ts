import { describe } from 'vitest';
import type { ApiResponse } from '../src/client/index.ts';
import { type ConformanceContext, conformance } from '../src/harness/index.ts';
import { provokeErrors } from './support/errors-provoke.ts';
import { type FrameworkError, provokeFrameworkErrors } from './support/framework-errors.ts';
import { once } from './support/rate-exhaustion.ts';
import { RATE_LIMIT_NAMES } from '../src/text/header-values.ts';
import { missingRateHeaders } from './support/rate-readings.ts';

/** X-RateLimit-Limit, -Remaining and -Reset, as they are shown. */

/**
 * The Error body on every documented error. STA-* tests assert the statuses themselves; these assert the
 * envelope, whatever status each error got (a wrong status is the STA tests' finding, not these).
 */

conformance(
  'ERR-001',
  'every 400, 401 and 404 carries the Error body with code, message and status',
  async (ctx: ConformanceContext) => {
    const errors = await provokeErrors(ctx);
    ctx.check(errors.length > 0, 'at least one documented error status to inspect', 'none of 401, 400, 404 was answered');
    for (const { label, response } of errors) ctx.judge('json-schema', response, { schema: 'Error' }, `${label}: ${response.status}`);
  },
  { tier: 'quick' },
);

conformance('ERR-002', "the Error body's status equals the HTTP status", async (ctx: ConformanceContext) => {
  const provoked = await provokeErrors(ctx);
  if (!provoked.some(({ response }) => hasField(response.body, 'status'))) ctx.skip(noErrorBody(provoked), 'precondition');
  for (const { label, response } of provoked) {
    const body = response.body as { status?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !('status' in body)) continue;
    ctx.judge('error-status-is-http-status', response, {}, label);
  }
});

conformance('ERR-003', "the Error body's code and message are non-empty strings", async (ctx: ConformanceContext) => {
  const provoked = await provokeErrors(ctx);
  if (!provoked.some(({ response }) => typeof response.body === 'object' && response.body !== null)) ctx.skip(noErrorBody(provoked), 'precondition');
  for (const { label, response } of provoked) {
    const body = response.body as { code?: unknown; message?: unknown } | undefined;
    if (!body || typeof body !== 'object') continue;
    for (const field of ['code', 'message'] as const) ctx.judge('field-non-empty', response, { field }, label);
  }
});

conformance('STA-009', 'each operation answers only with statuses the interface documents for it', async (ctx: ConformanceContext) => {
  const responses = [
    { operationId: 'listPets', response: await ctx.client.listPets({ limit: 1 }) },
    { operationId: 'getPet', response: await ctx.client.getPet(1n) },
    ...(await provokeErrors(ctx)).map((e) => ({ operationId: e.response.exchange.operationId ?? '', response: e.response })),
  ];
  if (!ctx.run.readOnly) {
    responses.push({ operationId: 'createPet', response: await ctx.client.createPet({ name: ctx.petName(), categoryId: ctx.categoryId() }) });
  }
  // The operation is the one the log records for the exchange; after getPet's x-sunset (5 December 2030)
  // it may be removed (404 or 410), judged at the time the request was sent.
  for (const { response } of responses) ctx.judge('status-documented', response, {});
});

function hasField(body: unknown, field: string): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && field in body;
}

/** Why there was nothing to judge: no documented error status came back with a JSON object (see ERR-001). */
function noErrorBody(provoked: ReadonlyArray<{ label: string }>): string {
  const which =
    provoked.length === 0
      ? 'no request got its documented error status (see STA-004, AUTH-001)'
      : `none of ${provoked.map((p) => p.label).join(', ')} carried an Error body (see ERR-001)`;
  return `nothing to judge: ${which}`;
}

/**
 * The errors a framework answers before the application (malformed percent-encoding, a header or URL
 * too large, another method). The interface says every response carries the rate-limit headers (a MUST,
 * RATE-001) and that errors are returned with the Error body: a MUST for the 400, 401 and 404 it lists
 * (ERR-001), a SHOULD for statuses it does not list (ERR-005), as for the 429 (ERR-004). Which status
 * each gets is the server's choice (any 4xx; a 5xx is STA-008's, judged on every response).
 */
describe('errors the framework answers', () => {
  const provoked = once(provokeFrameworkErrors);
  // Quick: one request (a header too large) that all three tests judge; real servers fail it often.
  const quick = { tier: 'quick' } as const;
  const isError = (e: FrameworkError) => e.response.status >= 400 && e.response.status < 500;

  conformance(
    'RATE-001',
    'errors the framework answers itself carry X-RateLimit-*',
    async (ctx: ConformanceContext) => {
      const answered = await provoked(ctx);
      if (answered.length === 0) ctx.skip('the target closed the connection instead of answering each of these requests: nothing to judge', 'precondition');
      for (const { label, response } of answered) {
        ctx.judge('headers-present', response, { names: [...RATE_LIMIT_NAMES] }, `the answer to ${label}`);
      }
    },
    quick,
  );

  // RATE-002 on the same answers: present headers are single non-negative integers, Remaining ≤ Limit.
  conformance('RATE-002', 'the X-RateLimit-* of errors the framework answers are integers, Remaining ≤ Limit', async (ctx: ConformanceContext) => {
    const complete = (await provoked(ctx)).filter(({ response }) => missingRateHeaders(response).length === 0);
    if (complete.length === 0) ctx.skip('none of the answers carried all three X-RateLimit-* headers (see RATE-001): nothing to judge', 'precondition');
    for (const { label, response } of complete) ctx.judge('rate-headers-integers', response, {}, `the ${response.status} to ${label}`);
  });

  // SCH-004 on the same answers: a body is JSON served as application/json, whichever layer wrote it
  // (the always-on check judges the interface's operations only; a 429's body is not shown, so not judged).
  conformance('SCH-004', 'the bodies of errors the framework answers are served as application/json', async (ctx: ConformanceContext) => {
    const bodies = (await provoked(ctx)).filter(({ response }) => response.status !== 429 && response.text.length > 0);
    if (bodies.length === 0) ctx.skip('none of the answers had a body: nothing to judge', 'precondition');
    for (const { label, response } of bodies) {
      ctx.judge('media-type', response, { name: 'Content-Type', value: 'application/json' }, `the ${response.status} to ${label}`);
    }
  });

  // RATE-010 (advisory) on the same answers: a Retry-After outside a 429, where one is sent, still has
  // RFC 9110's syntax (the always-on check judges the interface's operations only). An answer without
  // one holds it as the operations' 200s do.
  conformance('RATE-010', 'a Retry-After on an error the framework answers is delay-seconds or an HTTP-date', async (ctx: ConformanceContext) => {
    const answered = (await provoked(ctx)).filter(({ response }) => response.status !== 429);
    if (answered.length === 0) ctx.skip('the target closed the connection instead of answering each of these requests: nothing to judge', 'precondition');
    for (const { label, response } of answered) ctx.judge('retry-after-syntax', response, {}, `the ${response.status} to ${label}`);
  });

  conformance(
    'ERR-001',
    'a 400, 401 or 404 the framework answers itself carries the Error body',
    async (ctx: ConformanceContext) => {
      const listed = (await provoked(ctx)).filter((e) => [400, 401, 404].includes(e.response.status));
      if (listed.length === 0) ctx.skip('none of the requests was answered 400, 401 or 404: nothing for ERR-001 to judge', 'precondition');
      for (const { label, response } of listed) expectErrorBody(ctx, label, response);
    },
    quick,
  );

  conformance(
    'ERR-005',
    'an error of a status the interface does not list (405, 414, 431…) carries the Error body',
    async (ctx: ConformanceContext) => {
      const unlisted = (await provoked(ctx)).filter((e) => isError(e) && ![400, 401, 404, 429].includes(e.response.status));
      if (unlisted.length === 0) ctx.skip('no request was answered with a 4xx the interface does not list: nothing for ERR-005 to judge', 'precondition');
      for (const { label, response } of unlisted) expectErrorBody(ctx, label, response);
    },
    quick,
  );

  // ERR-003 on the framework's errors too: an Error body whose code or message is blank says nothing,
  // whichever layer wrote it (an unknown path's 404, another method's 405).
  conformance('ERR-003', 'the Error body of an error the framework answers has a non-empty code and message', async (ctx: ConformanceContext) => {
    const bodies = (await provoked(ctx)).filter((e) => isError(e) && typeof e.response.body === 'object' && e.response.body !== null);
    if (bodies.length === 0) ctx.skip('none of the requests was answered with a JSON object: nothing for ERR-003 to judge', 'precondition');
    for (const { label, response } of bodies) {
      const body = response.body as { code?: unknown; message?: unknown };
      for (const field of ['code', 'message'] as const) {
        const value = body[field];
        if (typeof value !== 'string') continue; // a missing or mistyped field is ERR-001's or ERR-005's
        ctx.judge('field-non-empty', response, { field }, `the ${response.status} to ${label}`);
      }
    }
  });

  // STA-015 (advisory, RFC 9110 §15.5.6): a 405 names what the path does serve in Allow. Which status a
  // method the interface does not give a path gets is the server's (405, 404, 501, or serving it as an
  // extension): only a 405 is judged, and its Allow must hold the path's methods the interface gives.
  conformance('STA-015', 'a 405 carries Allow with the methods the path serves', async (ctx: ConformanceContext) => {
    const refused = (await provoked(ctx)).filter((e) => e.response.status === 405);
    if (refused.length === 0) ctx.skip('no request was answered 405: nothing for STA-015 to judge', 'precondition');
    // The methods are those the interface gives the request's path, read from the logged URL.
    for (const { label, response } of refused) ctx.judge('allow-lists-path-methods', response, {}, `the 405 to ${label}`);
  });
});

function expectErrorBody(ctx: ConformanceContext, label: string, response: ApiResponse): void {
  ctx.judge('json-schema', response, { schema: 'Error' }, `the ${response.status} to ${label}`);
}
