import type { ApiResponse } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';

/**
 * An always-on check already judged this response for the test's own requirement: say so here too, as a
 * rule (`no-finding`) that rejudge runs again on the log. A finding the rule cannot see from the log
 * (one that reads the connection's history) still fails the test, as recorded.
 */
export function failOnFinding(ctx: ConformanceContext, response: ApiResponse): void {
  ctx.judge('no-finding', response, { requirement: ctx.requirement.id });
  const finding = response.findings.find((f) => f.requirementId === ctx.requirement.id);
  if (finding) ctx.fail(finding.expected, finding.actual, response);
}
