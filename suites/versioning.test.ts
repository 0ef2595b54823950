import { type ConformanceContext, conformance } from '../src/harness/index.ts';

/**
 * The version lives in the base path. What comes before /v1 is the deployment's business (a gateway
 * prefix, say); the path must end in /v1 and the operations must answer there.
 */

conformance(
  'VER-001',
  'the base address path ends in /v1 and listPets answers there',
  async (ctx: ConformanceContext) => {
    const path = new URL(ctx.run.baseUrl).pathname.replace(/\/+$/, '');
    ctx.check(path.endsWith('/v1'), 'a base address whose path ends in /v1', `the base path ${JSON.stringify(path || '/')}`);
    // The quick profile judges the path only (its other listPets requests are answered under it): the
    // path can fail the requirement, but cannot pass it alone.
    if (ctx.run.profile === 'quick') {
      ctx.observable(false, 'the quick profile checks the base path only: listPets under it is sent from --profile standard', 'profile');
      return;
    }
    // limit=1: one answer proves the operation is served under this base path, and keeps the page small.
    const response = await ctx.client.listPets({ limit: 1 });
    ctx.expectStatus(response, 200, `listPets under ${path}`);
  },
  { tier: 'quick' },
);
