import type { ApiResponse } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';

/** An always-on check already judged this response for the test's own requirement: say so here too. */
export function failOnFinding(ctx: ConformanceContext, response: ApiResponse): void {
  const finding = response.findings.find((f) => f.requirementId === ctx.requirement.id);
  ctx.check(finding === undefined, finding?.expected ?? '', finding?.actual ?? '', response);
}
