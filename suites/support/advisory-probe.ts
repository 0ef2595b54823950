import type { ApiResponse, RequestOptions, SendRequest } from '../../src/client/index.ts';
import { isHarnessError } from '../../src/errors.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';

/** What a target that never answers a request leaves: no response, only the reason. */
const NO_ANSWER = ['ERR_TARGET_TIMEOUT', 'ERR_TARGET_UNREACHABLE'];

/**
 * One request of an advisory test (a standard's rule, never the interface's): a target, or a proxy in
 * front of it, that never answers it fails the advisory's check (`expected`), a warning; it never makes
 * the run incomplete.
 */
export async function sendAdvisoryProbe(ctx: ConformanceContext, request: SendRequest, options: RequestOptions, expected: string): Promise<ApiResponse> {
  try {
    return await ctx.client.send(request, options);
  } catch (error) {
    if (!isHarnessError(error) || !NO_ANSWER.includes(error.code)) throw error;
    return ctx.check(false, expected, `no answer: ${error.message}`) as never;
  }
}
