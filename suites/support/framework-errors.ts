import type { ApiResponse } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { isGarbledAnswer } from '../../src/client/transport.ts';
import { isHarnessError } from '../../src/errors.ts';
import { unlikelyPetId } from './auth-operations.ts';

/** A request a server's framework (router, HTTP parser, URL decoder) usually answers before the application. */
export interface FrameworkError {
  label: string;
  response: ApiResponse;
}

/** Past Node's 16 KiB and most servers' 8 KiB limit on the request head: answered 431 (or 414, 400) by the framework. */
const OVERSIZED_BYTES = 24 * 1024;

/**
 * The errors real frameworks answer themselves: a malformed percent-encoding in the path and in the
 * query (Fastify, Express and others answer 400 before any route runs), a header and a URL too large
 * (Node answers 431 on its own), a path the interface does not define (404), a method the interface
 * does not give the path (405, 404 or 501). They are sent with the valid key, without an operation id:
 * the status is the server's to choose, so the always-on checks that judge an operation's statuses do
 * not apply; the tests judge what every response carries. Whatever comes back is returned, successes included (a server may read %zz literally).
 */
export async function provokeFrameworkErrors(ctx: ConformanceContext): Promise<FrameworkError[]> {
  const { client } = ctx;
  const sends: Array<[string, () => Promise<ApiResponse>]> = [
    // First the one every server on Node (and most others) answers from its HTTP parser: quick sends only it.
    [
      `GET /pets with a ${OVERSIZED_BYTES / 1024} KiB header`,
      // An oversized Cookie, as browsers send: no header name of the suite's own that a server could single out.
      () => client.send({ method: 'GET', path: '/pets', query: 'limit=1', headers: { Cookie: `session=${'x'.repeat(OVERSIZED_BYTES)}` } }),
    ],
    ['GET /pets/%zz (a malformed percent-encoding in the path)', () => client.send({ method: 'GET', path: '/pets/%zz' })],
    ['GET /pets/1/tags (a path the interface does not define)', () => client.send({ method: 'GET', path: '/pets/1/tags' })],
    ['GET /pets?limit=%zz (a malformed percent-encoding in the query)', () => client.send({ method: 'GET', path: '/pets', query: 'limit=%zz' })],
    [
      `GET /pets with a ${OVERSIZED_BYTES / 1024} KiB URL`,
      () => client.send({ method: 'GET', path: '/pets', query: `limit=1&utm_content=${'x'.repeat(OVERSIZED_BYTES)}` }),
    ],
  ];
  // Methods the interface does not give a path; never in read-only mode (a server may implement them).
  if (!ctx.run.readOnly) {
    const petId = unlikelyPetId(ctx);
    sends.push(
      ['DELETE /pets (a method the interface does not give the path)', () => client.send({ method: 'DELETE', path: '/pets' })],
      [`DELETE /pets/${petId} (a method the interface does not give the path)`, () => client.send({ method: 'DELETE', path: `/pets/${petId}` })],
    );
  }
  const out: FrameworkError[] = [];
  for (const [label, send] of ctx.run.profile === 'quick' ? sends.slice(0, 1) : sends) {
    try {
      out.push({ label, response: await send() });
    } catch (error) {
      // A server may close the connection instead of answering a request it will not read (a head too
      // large: RFC 9112 §2.3, RFC 9110 §15.5.14): no answer is nothing to judge here, not a failure. An
      // answer that is not HTTP is no such close: it stays an error, and the run incomplete.
      if (isHarnessError(error) && error.code === 'ERR_TARGET_UNREACHABLE' && !isGarbledAnswer(error)) continue;
      throw error;
    }
  }
  return out;
}
